import type { RequestLogEntry } from '../fakes/github-emulator.js';
import type { Reply } from '../fakes/scripted-model.js';
import type { World } from './harness.js';

/**
 * A model reply held back until a request of the step's is stored: how a test lets a model answer
 * in the seconds a stopped step has left, with no clock. `reached` settles once the request for the
 * reply arrived; `releaseWhenStored` then holds the step's next `method path` request
 * (`storedUnanswered`) and sends the reply once that request is stored.
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
      void storedUnanswered(w, method, path).then(cue);
      return cued;
    },
  };
}

/**
 * GitHub stores the step's next `method path` request without ever answering it, so a stopped step
 * runs on to its stop's network bound; settles once the request is stored.
 */
export function storedUnanswered(w: World, method: string, path: RegExp): Promise<RequestLogEntry> {
  w.gh.failAfter(method, path, 'hang');
  return w.gh.served(method, path);
}
