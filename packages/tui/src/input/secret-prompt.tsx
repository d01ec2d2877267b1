import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { isPlainText } from "../keys/parse-key.js";
import { useKeypress } from "../keys/use-keypress.js";
import { useTheme } from "../theme/theme-context.js";

export interface SecretPromptProps {
  /** What is asked, e.g. "Paste the API key for anthropic". */
  label: string;
  onSubmit: (secret: string) => void;
  onCancel: () => void;
}

/**
 * A one-line input for a secret (an API key): each character shows as `•`, never the text; pasted
 * text (bracketed or not) is taken whole, without its line breaks. Enter sends it, Esc cancels.
 */
export function SecretPrompt({ label, onSubmit, onCancel }: SecretPromptProps) {
  const theme = useTheme();
  const secret = useRef("");
  const [length, setLength] = useState(0);
  const set = (text: string) => {
    secret.current = text;
    setLength([...text].length);
  };
  useKeypress((key) => {
    if (key.name === "return") {
      const text = secret.current.trim();
      if (text !== "") onSubmit(text);
    } else if (key.name === "escape") onCancel();
    else if (key.name === "backspace") set([...secret.current].slice(0, -1).join(""));
    else if (isPlainText(key)) set(secret.current + key.text.replace(/[\r\n]/g, ""));
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text>{label}</Text>
      <Text>
        <Text color={theme.accent}>› </Text>
        {"•".repeat(length)}
        <Text inverse> </Text>
      </Text>
      <Text color={theme.subtle}>enter save · esc cancel · the key is stored as `nyz login` stores it</Text>
    </Box>
  );
}
