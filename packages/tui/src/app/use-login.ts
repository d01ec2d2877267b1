import type { Environment } from "@nyzhi/config";
import { login, type OpenedSession } from "@nyzhi/core";
import { useCallback, useState } from "react";
import type { TranscriptInput } from "../transcript/transcript-types.js";
import type { SessionControls } from "./use-session.js";

export interface LoginControls {
  /** The provider whose API key is being pasted (masked), if any. */
  keyFor: string | undefined;
  askApiKey(providerId: string): void;
  cancelKey(): void;
  saveKey(providerId: string, apiKey: string): Promise<void>;
  /** The browser login (OAuth): the URL shown, the callback waited for, the token saved. */
  loginWithBrowser(providerId: string): void;
}

/**
 * `/login` in the app: a pasted key or the provider's browser login, saved as `nyz login` saves
 * them; then the session uses it at once — opened if it had no credentials, or reopened on its
 * conversation when the login is for the provider it runs on.
 */
export function useLogin(options: {
  env: Environment;
  session: OpenedSession | undefined;
  controls: Pick<SessionControls, "reopen" | "reload" | "busy">;
  say: (message: string, tone?: "info" | "warning") => void;
  dispatch: (input: TranscriptInput) => void;
}): LoginControls {
  const { env, session, controls, say, dispatch } = options;
  const [keyFor, setKeyFor] = useState<string | undefined>(undefined);

  const applyLogin = useCallback(
    async (providerId: string) => {
      if (!session) return void (await controls.reopen());
      if (session.model.providerId !== providerId) return;
      if (controls.busy) return say("The session uses it from the next time it opens (a turn runs now).");
      if (await controls.reload()) say(`The session uses the new ${providerId} credentials now.`);
    },
    [controls, say, session],
  );

  const failed = useCallback(
    (error: unknown) =>
      dispatch({ type: "app-error", message: error instanceof Error ? error.message : String(error) }),
    [dispatch],
  );

  const saveKey = useCallback(
    async (providerId: string, apiKey: string) => {
      setKeyFor(undefined);
      try {
        const result = await login({
          providerId,
          apiKey,
          method: "api-key",
          env,
          io: { print: (line) => say(line), prompt: async () => "" },
        });
        if (result.status !== "saved") return say(`No key saved for ${providerId}.`, "warning");
        say(`Saved the API key for ${providerId} (${result.storeKind} store, as \`nyz login\` saves it).`);
        await applyLogin(providerId);
      } catch (error) {
        failed(error);
      }
    },
    [env, failed, say, applyLogin],
  );

  const loginWithBrowser = useCallback(
    (providerId: string) => {
      say(
        `Logging in to ${providerId} in the browser; this waits until the browser comes back (5 minutes at most).`,
      );
      void login({
        providerId,
        method: "oauth",
        env,
        io: { print: (line) => say(line), prompt: async () => "" },
      })
        .then(async (result) => {
          if (result.status !== "saved") return say(`Nothing was saved for ${providerId}.`, "warning");
          say(
            `Logged in to ${providerId} (account ${result.label}, ${result.type}, ${result.storeKind} store).`,
          );
          await applyLogin(providerId);
        })
        .catch(failed);
    },
    [env, failed, say, applyLogin],
  );

  return {
    keyFor,
    askApiKey: setKeyFor,
    cancelKey: () => setKeyFor(undefined),
    saveKey,
    loginWithBrowser,
  };
}
