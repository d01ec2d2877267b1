import { Box, Text } from "ink";
import { useTheme } from "../theme/theme-context.js";
import type { AppHeader } from "./transcript-types.js";

/** The one line of tips under the header: keys and prefixes a new user reaches for first. */
export const HEADER_TIPS = "@ files · / commands · shift+tab mode · ctrl+t agents · esc interrupt · /help";

/**
 * The app's header, four short lines written once into the scrollback: version; project folder and
 * whether it is trusted; provider, model, trust mode and sandbox; tips.
 */
export function HeaderView({ header }: { header: AppHeader }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text wrap="truncate-end">
        <Text color={theme.accent} bold>
          ✻ nyzhi
        </Text>
        <Text color={theme.subtle}> v{header.version}</Text>
      </Text>
      <Text wrap="truncate-end">
        <Text color={theme.muted}>{"  "}</Text>
        <Text>{header.folder}</Text>
        <Text color={header.trusted ? theme.muted : theme.warning}>
          {header.trusted ? " (trusted)" : " (not trusted: /trust on)"}
        </Text>
      </Text>
      <Text wrap="truncate-end" color={theme.muted}>
        {"  "}
        {header.provider}/{header.model} · trust {header.trustMode} · sandbox {header.sandbox}
      </Text>
      <Text wrap="truncate-end" color={theme.subtle}>
        {"  "}
        {HEADER_TIPS}
      </Text>
    </Box>
  );
}
