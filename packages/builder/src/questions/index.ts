/**
 * The question flow: format first, inspection, then only what the code and the answers file
 * left open — through a prompt port that a terminal or a script implements.
 */
export { collectAnswers, resolveFormat, type CollectOptions, type Collected, type Format } from './collect-answers.js';
export { createClackPrompts } from './clack-prompts.js';
export { createScriptedPrompts, type PromptScript, type ScriptedPrompts } from './scripted-prompts.js';
export { PromptCancelledError, type PromptPort, type QuestionId } from './prompt-port.js';
export { proposeFromInspection, type Proposals } from './propose.js';
export { formatFindings } from './findings-report.js';
export { parseDuration } from './duration.js';
