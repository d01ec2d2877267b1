import { z } from "zod";
import { defineShippedTool } from "../seam/define-tool.js";

const optionSchema = z.lazy(() =>
  z.object({
    value: z.string().min(1).describe("What you get back when the user picks this option."),
    label: z.string().min(1).describe("What the user sees."),
  }),
);

const inputSchema = z.lazy(() =>
  z.object({
    question: z
      .string()
      .min(1)
      .describe("The question, self-contained: the user may not have read your last message."),
    options: z.array(optionSchema).min(2).max(6).optional().describe("2-6 choices to pick from."),
    allow_custom: z
      .boolean()
      .default(true)
      .describe("Whether the user may type an answer instead of picking (default true)."),
  }),
);

/** What the model sees when nobody can answer (headless runs, subagents without a host). */
export const NO_USER_MESSAGE =
  "No user is available to answer questions in this session. Do not wait for an answer: proceed with your best judgement, state the assumption you made, and continue.";

/** What the model sees when the user closed the question without answering. */
export const DISMISSED_MESSAGE =
  "The user dismissed the question without answering. Proceed with your best judgement and state the assumption you made.";

export const askUserTool = defineShippedTool({
  name: "ask_user",
  description:
    "Ask the user a question and wait for the answer. Only for decisions you cannot make yourself (ambiguous requirements, a choice between approaches with real trade-offs, missing credentials); never to ask permission for something you were asked to do.",
  inputSchema,
  kind: "interact",
  mutates: false,
  async execute(input, context) {
    const askUser = context.services.askUser;
    if (!askUser) return { output: NO_USER_MESSAGE, isError: true };
    const options = input.options ?? [];
    const answer = (
      await askUser(
        input.question,
        options.length > 0 ? { choices: options.map((option) => option.label) } : undefined,
      )
    ).trim();
    if (answer === "") return DISMISSED_MESSAGE;
    const picked = options.find((option) => option.label === answer || option.value === answer);
    if (picked) return { output: `User selected: ${picked.value}`, metadata: { value: picked.value } };
    if (options.length > 0 && !input.allow_custom) {
      return `User answered: ${answer}\n(Not one of the offered options; custom answers were not allowed, so treat it with care.)`;
    }
    return `User answered: ${answer}`;
  },
});
