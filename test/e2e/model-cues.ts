import type { RequestLogEntry } from '../fakes/github-emulator.js';
import type { Reply } from '../fakes/scripted-model.js';
import type { World } from './harness.js';

/**
 * A model reply held back until a request of the step's is stored: how a test lets a model answer
 * in the seconds a stopped step has left, with no clock. `reached` settles once the request for the
 * reply arrived; `releaseWhenStored` then makes GitHub store the step's next `method path` request
 * without ever answering it (the step runs on to its stop's network bound), and sends the reply
 * once that request is stored.
 */
export function answerOnCue(answer: Reply): {
  reply: Reply;
  reached: Promise<void>;
  releaseWhenStored(w: World, method: string, path: RegExp): Promise<RequestLogEntry>;
} {
  let arrived: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  let cue: (entry: RequestLogEntry) => void = () => undefined;
  const cued = new Promise<RequestLogEntry>((resolve) => (cue = resolve));
  const reply: Reply = async () => {
    arrived();
    await cued;
    return answer;
  };
  return {
    reply,
    reached,
    releaseWhenStored: (w, method, path) => {
      w.gh.failAfter(method, path, 'hang');
      void w.gh.served(method, path).then(cue);
      return cued;
    },
  };
}
