/** The wire format a provider speaks. `openai` is OpenAI Chat Completions. */
export type ApiStyle =
  | "openai"
  | "openai-responses"
  | "anthropic"
  | "gemini"
  | "cursor"
  | "copilot"
  | "claude-sdk"
  | "codex";

export interface BuiltInProvider {
  id: string;
  name: string;
  /** Environment variable holding the API key. */
  envVar: string;
  /** Environment variable overriding the base URL, when the vendor's SDK has one. */
  baseUrlEnvVar?: string;
  defaultBaseUrl: string;
  apiStyle: ApiStyle;
  category: "popular" | "agents" | "other";
  /** Whether `nyz login` offers an OAuth flow (otherwise it asks for an API key). */
  oauth: boolean;
}

/**
 * Built-in providers, in the order the login menu shows them (spec edges §1.6).
 * Auth knows providers only through this table (id and env var); provider adds the adapters.
 */
export const BUILT_IN_PROVIDERS: readonly BuiltInProvider[] = [
  {
    id: "openai",
    name: "OpenAI",
    envVar: "OPENAI_API_KEY",
    baseUrlEnvVar: "OPENAI_BASE_URL",
    defaultBaseUrl: "https://api.openai.com/v1",
    apiStyle: "openai",
    category: "popular",
    oauth: true,
  },
  {
    id: "anthropic",
    name: "Anthropic",
    envVar: "ANTHROPIC_API_KEY",
    baseUrlEnvVar: "ANTHROPIC_BASE_URL",
    defaultBaseUrl: "https://api.anthropic.com/v1",
    apiStyle: "anthropic",
    category: "popular",
    oauth: true,
  },
  {
    id: "gemini",
    name: "Google Gemini",
    envVar: "GEMINI_API_KEY",
    baseUrlEnvVar: "GEMINI_BASE_URL",
    defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
    apiStyle: "gemini",
    category: "popular",
    oauth: true,
  },
  {
    id: "cursor",
    name: "Cursor",
    envVar: "CURSOR_API_KEY",
    defaultBaseUrl: "https://api2.cursor.sh",
    apiStyle: "cursor",
    category: "popular",
    oauth: true,
  },
  {
    id: "github-copilot",
    name: "GitHub Copilot",
    envVar: "GITHUB_COPILOT_TOKEN",
    defaultBaseUrl: "https://api.githubcopilot.com",
    apiStyle: "copilot",
    category: "popular",
    oauth: true,
  },
  {
    id: "openrouter",
    name: "OpenRouter",
    envVar: "OPENROUTER_API_KEY",
    baseUrlEnvVar: "OPENROUTER_BASE_URL",
    defaultBaseUrl: "https://openrouter.ai/api/v1",
    apiStyle: "openai",
    category: "popular",
    oauth: false,
  },
  {
    id: "claude-sdk",
    name: "Claude Agent SDK",
    envVar: "ANTHROPIC_API_KEY",
    defaultBaseUrl: "",
    apiStyle: "claude-sdk",
    category: "agents",
    oauth: false,
  },
  {
    id: "codex",
    name: "OpenAI Codex CLI",
    envVar: "CODEX_API_KEY",
    defaultBaseUrl: "",
    apiStyle: "codex",
    category: "agents",
    oauth: false,
  },
  {
    id: "groq",
    name: "Groq",
    envVar: "GROQ_API_KEY",
    baseUrlEnvVar: "GROQ_BASE_URL",
    defaultBaseUrl: "https://api.groq.com/openai/v1",
    apiStyle: "openai",
    category: "other",
    oauth: false,
  },
  {
    id: "together",
    name: "Together AI",
    envVar: "TOGETHER_API_KEY",
    baseUrlEnvVar: "TOGETHER_BASE_URL",
    defaultBaseUrl: "https://api.together.xyz/v1",
    apiStyle: "openai",
    category: "other",
    oauth: false,
  },
  {
    id: "deepseek",
    name: "DeepSeek",
    envVar: "DEEPSEEK_API_KEY",
    baseUrlEnvVar: "DEEPSEEK_BASE_URL",
    defaultBaseUrl: "https://api.deepseek.com/v1",
    apiStyle: "openai",
    category: "other",
    oauth: false,
  },
  {
    id: "ollama",
    name: "Ollama (local)",
    envVar: "OLLAMA_API_KEY",
    baseUrlEnvVar: "OLLAMA_BASE_URL",
    defaultBaseUrl: "http://localhost:11434/v1",
    apiStyle: "openai",
    category: "other",
    oauth: false,
  },
  {
    id: "kimi",
    name: "Kimi (Moonshot)",
    envVar: "MOONSHOT_API_KEY",
    baseUrlEnvVar: "MOONSHOT_BASE_URL",
    defaultBaseUrl: "https://api.moonshot.ai/v1",
    apiStyle: "openai",
    category: "other",
    oauth: false,
  },
  {
    id: "kimi-coding",
    name: "Kimi Coding Plan",
    envVar: "KIMI_CODING_API_KEY",
    defaultBaseUrl: "https://api.kimi.com/coding",
    apiStyle: "anthropic",
    category: "other",
    oauth: false,
  },
  {
    id: "minimax",
    name: "MiniMax",
    envVar: "MINIMAX_API_KEY",
    baseUrlEnvVar: "MINIMAX_BASE_URL",
    defaultBaseUrl: "https://api.minimax.io/v1",
    apiStyle: "openai",
    category: "other",
    oauth: false,
  },
  {
    id: "minimax-coding",
    name: "MiniMax Coding Plan",
    envVar: "MINIMAX_CODING_API_KEY",
    defaultBaseUrl: "https://api.minimax.io/anthropic",
    apiStyle: "anthropic",
    category: "other",
    oauth: false,
  },
  {
    id: "glm",
    name: "GLM (Z.ai)",
    envVar: "ZHIPU_API_KEY",
    baseUrlEnvVar: "ZHIPU_BASE_URL",
    defaultBaseUrl: "https://api.z.ai/api/paas/v4",
    apiStyle: "openai",
    category: "other",
    oauth: false,
  },
  {
    id: "glm-coding",
    name: "GLM Coding Plan",
    envVar: "ZHIPU_CODING_API_KEY",
    defaultBaseUrl: "https://api.z.ai/api/coding/paas/v4",
    apiStyle: "openai",
    category: "other",
    oauth: false,
  },
];

export function findBuiltInProvider(id: string): BuiltInProvider | undefined {
  return BUILT_IN_PROVIDERS.find((provider) => provider.id === id);
}
