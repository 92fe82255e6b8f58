/**
 * Whether `promise` settles (either way) within `ms`. The timer keeps Node alive meanwhile, so a
 * wait on a stop signal or on a server's exit still ends in what comes after it; whatever the
 * promise does later is not waited for. Never throws.
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
