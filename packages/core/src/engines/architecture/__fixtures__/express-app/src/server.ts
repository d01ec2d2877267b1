import cors from "cors";
import express, { type NextFunction, type Request, type Response } from "express";
import { authenticate } from "./middleware/auth.js";
import ordersRouter from "./routes/orders.js";
import usersRouter from "./routes/users.js";

const app = express();
app.use(cors());
app.use(express.json());
app.use(authenticate);
app.use("/api/users", usersRouter);
app.use("/api/orders", ordersRouter);

app.get("/health", (_req, res) => {
  res.json({ ok: true });
});

// app.get("/commented-out", handler) must not count.
app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
  res.status(500).json({ error: err.message });
});

app.listen(3000);
