/**
 * A small thesaurus of programming vocabulary: groups of words that APIs use for one idea
 * (`remove` / `delete` / `clear`, `response` / `reply`). Written from general knowledge of API
 * naming before looking at any failing query of bench/retrieval, and kept general: no group names
 * a word only one code base uses. A question in a user's words then reaches code written in the
 * API's words. Each group is one line of space-separated words (single words: the full-text
 * tokenizer splits anything else).
 */
const GROUPS = `
remove delete erase wipe clear drop purge discard unset strip
response reply answer
request ask query
get fetch retrieve obtain lookup
set assign put store save
create make build construct generate produce spawn new
start begin launch run execute invoke
stop end finish halt terminate abort cancel kill quit exit
send emit dispatch transmit post
receive accept
find search locate seek lookup
check validate verify ensure assert test
error failure fault exception problem
show display print render output echo
parse decode interpret deserialize load unmarshal
serialize encode stringify dump marshal
convert transform translate cast coerce turn
join combine merge concat concatenate
split divide separate tokenize
copy clone duplicate
compare equal match diff
count number total tally
size length width
list array sequence collection items
dictionary dict map mapping
folder directory dir
link url uri href address
host server domain
password secret credential
login auth authentication authenticate signin
option flag setting switch preference
argument arg parameter param operand
default fallback
usage help
prompt input ask
wait sleep delay pause
retry repeat attempt again
redirect forward
body content payload data
text string str
integer int number numeric digit
boolean bool
empty blank missing none null
first initial head leading
last final tail trailing
previous prior preceding
parent ancestor enclosing outer
child children descendant nested sub subcommand
command cmd action
encoding charset codec
compress gzip deflate zip
timeout deadline expiry expire
cache memo memoize
close shutdown dispose release cleanup teardown
connect connection socket session
download fetch
color colour style ansi
terminal console tty screen
key keystroke keypress getchar
line row
column col
truncate shorten abbreviate condense cut trim
lowercase lower
uppercase upper capital capitalize
escape quote
hidden hide invisible
required mandatory needed
name title label
description summary doc help
type kind class
callback handler hook listener
event signal
listen subscribe watch observe
log record trace
warning warn
configure config configuration settings setup
initialize init setup
reset restore
update refresh modify change edit
add append insert push include
sort order rank
filter select exclude
limit maximum max cap bound clamp
minimum min
range interval span
hash digest checksum
stream pipe flow
chunk piece part fragment segment block
iterate loop each walk traverse
overwrite replace substitute
exists present
contains includes has
permission access allow deny
interrupt abort cancel
pending waiting
promise future deferred
program application app script executable
status state
message msg
serialize stringify
editor edit
browser viewer open launch
suggest suggestion similar closest
spread apply
dash hyphen kebab
underscore snake
camel camelcase
environment env
version release
`;

/** A word's light stem for lookup: lower case, common inflections off (`clears`, `cleared`, `clearing` → `clear`). */
export function lightStem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= 4) return lower;
  if (lower.endsWith("ies")) return `${lower.slice(0, -3)}y`;
  if (lower.endsWith("ing") && lower.length > 5) return undoubled(lower.slice(0, -3));
  if (lower.endsWith("ed") && lower.length > 4) return undoubled(lower.slice(0, -2));
  if (lower.endsWith("es") && /(ss|sh|ch|x|z)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.endsWith("s") && !lower.endsWith("ss")) return lower.slice(0, -1);
  return lower;
}

const undoubled = (stem: string): string => (/([^aeiouls])\1$/.test(stem) ? stem.slice(0, -1) : stem);

const RELATED: ReadonlyMap<string, readonly string[]> = (() => {
  const related = new Map<string, Set<string>>();
  for (const line of GROUPS.trim().split("\n")) {
    const words = line.trim().split(/\s+/);
    for (const word of words) {
      const key = lightStem(word);
      const set = related.get(key) ?? new Set<string>();
      for (const other of words) if (lightStem(other) !== key) set.add(other);
      related.set(key, set);
    }
  }
  return new Map([...related].map(([key, set]) => [key, [...set]]));
})();

/**
 * The thesaurus words related to `words` (any case and inflection), each once, leaving out words
 * `words` already holds; empty when none is known.
 */
export function relatedWords(words: Iterable<string>): string[] {
  const given = [...words].filter((word) => word.length > 0);
  const have = new Set(given.map(lightStem));
  const added = new Set<string>();
  for (const word of given) {
    for (const other of RELATED.get(lightStem(word)) ?? []) {
      const stem = lightStem(other);
      if (have.has(stem)) continue;
      have.add(stem);
      added.add(other);
    }
  }
  return [...added];
}
