import { Router } from "express";
import type { Order } from "../models/order.js";

const router = Router();
const orders = new Map<string, Order>();

router.get("/", (_req, res) => res.json([...orders.values()]));
router.delete("/:id", (req, res) => {
  orders.delete(req.params.id);
  res.status(204).end();
});

export default router;
