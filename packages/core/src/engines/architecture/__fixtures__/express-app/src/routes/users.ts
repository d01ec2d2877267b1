import { Router } from "express";
import { UserService } from "../services/user-service.js";

const router = Router();
const users = new UserService();

router.get("/", async (_req, res) => res.json(await users.list()));
router.get("/:id", async (req, res) => res.json(await users.find(req.params.id)));
router.post("/", async (req, res) => res.status(201).json(await users.create(req.body)));

export default router;
