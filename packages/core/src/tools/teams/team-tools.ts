import { randomUUID } from "node:crypto";
import { z } from "zod";
import { TASK_STATUSES, type TeamTask } from "../../teams/task-board.js";
import {
  formatTeammateMessages,
  REQUEST_TYPES,
  RESPONSE_TYPES,
  structuredText,
  TEAM_MESSAGE_TYPES,
} from "../../teams/team-message.js";
import { TEAM_SERVICE, type TeamIdentity, type TeamService } from "../../teams/team-service.js";
import { leadName, TeamError } from "../../teams/team-types.js";
import { defineShippedTool, type Tool } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";

function serviceOf(context: ToolContext): TeamService {
  const service = context.services[TEAM_SERVICE] as TeamService | undefined;
  if (!service) throw new TeamError("team_unavailable", "Teams are not available in this session.");
  return service;
}

const teamArgument = z
  .string()
  .optional()
  .describe("Team name; default: your own team (or the one you created last).");

async function whoAmI(context: ToolContext, team: string | undefined): Promise<TeamIdentity> {
  return serviceOf(context).identify(context.agent.id, team);
}

export const teamCreateTool = defineShippedTool({
  name: "team_create",
  description:
    "Create a team you lead: a config, one inbox per member and a shared task board. List the teammates to register (spawn them with spawn_teammate).",
  inputSchema: z.lazy(() =>
    z.object({
      name: z.string(),
      members: z
        .array(z.object({ name: z.string(), role: z.string().optional(), model: z.string().optional() }))
        .optional()
        .describe("Teammates (you are added as the lead)."),
      default_model: z.string().optional(),
      default_role: z.string().optional(),
      max_steps: z.number().int().min(0).optional().describe("Step cap per teammate turn; 0 = default."),
    }),
  ),
  kind: "agent",
  mutates: true,
  async execute(input, context) {
    const service = serviceOf(context);
    const lead = service.leadNameForNewTeam();
    const config = await service.store.create({
      name: input.name,
      leadName: lead,
      members: input.members ?? [],
      ...(input.default_model ? { defaultModel: input.default_model } : {}),
      ...(input.default_role ? { defaultRole: input.default_role } : {}),
      ...(input.max_steps !== undefined ? { maxSteps: input.max_steps } : {}),
    });
    service.adopt(config.name, lead);
    return `Team '${config.name}' created with ${config.members.length} members. Lead: '${lead}'.`;
  },
});

export const teamDeleteTool = defineShippedTool({
  name: "team_delete",
  description: "Delete a team: its config, inboxes and task board. Its running teammates are stopped.",
  inputSchema: z.lazy(() => z.object({ name: z.string() })),
  kind: "agent",
  mutates: true,
  async execute(input, context) {
    const service = serviceOf(context);
    await service.forget(input.name);
    await service.store.delete(input.name);
    return `Team '${input.name}' deleted.`;
  },
});

export const teamListTool = defineShippedTool({
  name: "team_list",
  description: "List the teams with their members.",
  inputSchema: z.lazy(() => z.object({})),
  kind: "agent",
  mutates: false,
  async execute(_input, context) {
    const service = serviceOf(context);
    const names = await service.store.list();
    if (names.length === 0) return "No teams found.";
    const lines = ["Active teams:"];
    for (const name of names) {
      const members = (await service.store.load(name)).members.map((member) => member.name);
      lines.push(`- ${name} (${members.length} members: ${members.join(", ")})`);
    }
    return lines.join("\n");
  },
});

export const sendTeamMessageTool = defineShippedTool({
  name: "send_team_message",
  description:
    "Message a teammate or the lead (`to`: a member name, or `all` for everyone but you). `type` sends a structured message: requests (request, shutdown_request, plan_approval_request) get a request_id to answer with the matching response type (response, shutdown_response, plan_approval_response with `approve`).",
  inputSchema: z.lazy(() =>
    z.object({
      team: teamArgument,
      to: z.string(),
      text: z.string(),
      type: z.enum(TEAM_MESSAGE_TYPES).optional().describe("Default: a plain message."),
      request_id: z.string().optional().describe("The request a response answers."),
      approve: z.boolean().optional().describe("For shutdown_response and plan_approval_response."),
    }),
  ),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const service = serviceOf(context);
    const me = await whoAmI(context, input.team);
    let text = input.text;
    let requestId: string | undefined;
    const type = input.type;
    if (type && type !== "message") {
      if (RESPONSE_TYPES.has(type) && !input.request_id)
        throw new TeamError(
          "team_message_invalid",
          `A ${type} needs the request_id of the request it answers.`,
        );
      requestId = REQUEST_TYPES.has(type) ? (input.request_id ?? randomUUID()) : input.request_id;
      text = structuredText(type, {
        ...(requestId ? { request_id: requestId } : {}),
        ...(input.approve !== undefined ? { approve: input.approve } : {}),
        content: input.text,
      });
    }
    const recipients = await service.send(me, input.to, text);
    const sent =
      input.to === "all" || input.to === "*"
        ? `Broadcast to ${recipients.length} member(s): ${recipients.join(", ")}.`
        : `Message sent to ${input.to}.`;
    return requestId && type && REQUEST_TYPES.has(type) ? `${sent} request_id: ${requestId}` : sent;
  },
});

export const readInboxTool = defineShippedTool({
  name: "read_inbox",
  description: "Read your unread team messages now (they also arrive on their own before your next step).",
  inputSchema: z.lazy(() => z.object({ team: teamArgument })),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const service = serviceOf(context);
    const messages = await service.readInbox(await whoAmI(context, input.team));
    if (messages.length === 0) return "No unread messages.";
    return `${messages.length} unread message(s):\n${formatTeammateMessages(messages)}`;
  },
});

export const taskCreateTool = defineShippedTool({
  name: "task_create",
  description:
    "Add a task to the team's board. `blocked_by` lists task ids it waits for (it starts blocked and unblocks when they complete); `owner` assigns it (the member is told).",
  inputSchema: z.lazy(() =>
    z.object({
      team: teamArgument,
      subject: z.string(),
      description: z.string().optional(),
      active_form: z.string().optional().describe("Present-continuous form shown while it runs."),
      blocked_by: z.array(z.union([z.string(), z.number()])).optional(),
      owner: z.string().optional(),
    }),
  ),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const service = serviceOf(context);
    const me = await whoAmI(context, input.team);
    const task = await service.board.create(me.team, {
      subject: input.subject,
      description: input.description,
      activeForm: input.active_form,
      blockedBy: input.blocked_by?.map(String),
      owner: input.owner,
    });
    if (task.owner && task.owner !== me.member) await assign(service, me, task);
    const blocked =
      task.blockedBy.length > 0 ? ` Blocked by ${task.blockedBy.map((id) => `#${id}`).join(", ")}.` : "";
    return `Task #${task.id} created: '${task.subject}'.${blocked}`;
  },
});

export const taskUpdateTool = defineShippedTool({
  name: "task_update",
  description:
    "Change a task's status or owner. Setting yourself as owner claims it atomically (refused when someone else has it or it is blocked). Completing a task unblocks the tasks waiting for it.",
  inputSchema: z.lazy(() =>
    z.object({
      team: teamArgument,
      task_id: z.union([z.string(), z.number()]),
      status: z.enum(TASK_STATUSES).optional(),
      owner: z.string().optional().describe("A member name; empty to unassign."),
      blocked_by: z
        .array(z.union([z.string(), z.number()]))
        .optional()
        .describe("Replaces the dependencies."),
    }),
  ),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const service = serviceOf(context);
    const me = await whoAmI(context, input.team);
    const id = String(input.task_id).replace(/^#/, "");
    const current = await service.board.get(me.team, id);
    if (!current) throw new TeamError("task_not_found", `Task #${id} not found in team '${me.team}'.`);
    if (input.owner && input.owner !== me.member && !me.isLead && input.owner !== current.owner)
      throw new TeamError(
        "task_not_lead",
        "Only the lead assigns tasks to others; set yourself as owner to claim.",
      );
    if (input.status === "completed" && current.status !== "completed") {
      const hook = await service.lifecycle.taskCompleted({
        team_name: me.team,
        task_id: id,
        task_subject: current.subject,
        teammate_name: me.member,
      });
      if (hook.reject !== undefined)
        throw new TeamError(
          "task_completion_rejected",
          `Completion of task #${id} was rejected by a task_completed hook: ${hook.reject}`,
        );
    }
    const claiming = input.owner === me.member && input.owner !== current.owner;
    if (claiming) await service.board.claim(me.team, id, me.member);
    const { task, unblocked } = await service.board.update(me.team, id, {
      ...(input.status ? { status: input.status } : {}),
      ...(input.owner !== undefined && !claiming ? { owner: input.owner } : {}),
      ...(input.blocked_by ? { blockedBy: input.blocked_by.map(String) } : {}),
    });
    if (task.owner && task.owner !== current.owner && task.owner !== me.member)
      await assign(service, me, task);
    if (task.status === "completed" && current.status !== "completed") {
      if (!me.isLead) {
        const lead = leadName(await service.store.load(me.team));
        await service.send(
          me,
          lead,
          structuredText("task_completed", {
            task_id: task.id,
            subject: task.subject,
            teammate_name: me.member,
          }),
        );
      }
      for (const freed of unblocked)
        if (freed.owner && freed.owner !== me.member)
          await service.send(me, freed.owner, `Task #${freed.id} '${freed.subject}' is unblocked and ready.`);
    }
    const freed =
      unblocked.length > 0 ? ` Unblocked: ${unblocked.map((entry) => `#${entry.id}`).join(", ")}.` : "";
    return `Task #${task.id} updated: status=${task.status}, owner=${task.owner ?? "unassigned"}.${freed}`;
  },
});

async function assign(service: TeamService, me: TeamIdentity, task: TeamTask): Promise<void> {
  await service.send(
    me,
    task.owner!,
    structuredText("task_assignment", {
      task_id: task.id,
      subject: task.subject,
      ...(task.description ? { description: task.description } : {}),
      assigned_by: me.member,
    }),
  );
}

export const taskListTool = defineShippedTool({
  name: "task_list",
  description: "List the team's tasks, optionally only one status or one owner's.",
  inputSchema: z.lazy(() =>
    z.object({
      team: teamArgument,
      filter: z.enum(["pending", "in_progress", "completed", "blocked"]).optional(),
      owner: z.string().optional(),
    }),
  ),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const service = serviceOf(context);
    const me = await whoAmI(context, input.team);
    const tasks = (await service.board.list(me.team, { status: input.filter, owner: input.owner })).filter(
      (task) => input.filter !== undefined || task.status !== "deleted",
    );
    if (tasks.length === 0) return "No tasks.";
    return tasks.map(formatTaskLine).join("\n");
  },
});

/** `- [status] #id (owner)[ blocked by: #a, #b] -- subject` */
export function formatTaskLine(task: TeamTask): string {
  const blocked =
    task.blockedBy.length > 0 ? ` blocked by: ${task.blockedBy.map((id) => `#${id}`).join(", ")}` : "";
  return `- [${task.status}] #${task.id} (${task.owner ?? "unassigned"})${blocked} -- ${task.subject}`;
}

export const spawnTeammateTool = defineShippedTool({
  name: "spawn_teammate",
  description:
    "Start a long-lived teammate in your team: it works on `message`, then goes idle and wakes on new messages or task assignments until you send it a shutdown_request. Spawning a name that is already running delivers the message instead. `plan_mode`: it must get your approval of a plan (plan_approval_response) before editing.",
  inputSchema: z.lazy(() =>
    z.object({
      team: teamArgument,
      name: z.string(),
      message: z.string(),
      role: z.string().optional().describe("Role name, as for spawn_agent."),
      model: z.string().optional(),
      plan_mode: z.boolean().optional(),
    }),
  ),
  kind: "agent",
  mutates: true,
  async execute(input, context) {
    return serviceOf(context).spawnTeammate({
      callerId: context.agent.id,
      team: input.team,
      name: input.name,
      message: input.message,
      role: input.role,
      model: input.model,
      planMode: input.plan_mode,
    });
  },
});

/** Every team tool, for the lead. */
export function leadTeamTools(): Tool[] {
  return [
    teamCreateTool,
    teamDeleteTool,
    teamListTool,
    sendTeamMessageTool,
    readInboxTool,
    taskCreateTool,
    taskUpdateTool,
    taskListTool,
    spawnTeammateTool,
  ];
}

/** What a teammate gets beside its role's tools: messaging and the board. */
export function memberTeamTools(): Tool[] {
  return [teamListTool, sendTeamMessageTool, readInboxTool, taskCreateTool, taskUpdateTool, taskListTool];
}
