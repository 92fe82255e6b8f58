// Loaded with --require into every process the benchmark times, the action and `node -e 0` alike, so
// both pay the same for it. At exit it records what Node cannot tell a parent about a child: the
// process's own CPU time and peak RSS (getrusage), and the CPU time of the children it waited for
// (git), which only /proc/self/stat reports. One file per pid: a nested node must not overwrite it.
'use strict';

const dir = process.env.PLANGATE_BENCH_PROBE;
if (dir) {
  process.on('exit', () => {
    const fs = process.getBuiltinModule('node:fs');
    const usage = process.resourceUsage();
    let childTicks;
    try {
      const stat = fs.readFileSync('/proc/self/stat', 'utf8');
      // Fields after "(comm) " start at field 3; cutime and cstime are fields 16 and 17.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      childTicks = Number(fields[13]) + Number(fields[14]);
    } catch {
      // No /proc (not Linux): children's CPU stays unknown rather than wrong.
      childTicks = null;
    }
    const figures = {
      userMicros: usage.userCPUTime,
      systemMicros: usage.systemCPUTime,
      maxRssKiB: usage.maxRSS,
      childTicks,
    };
    fs.writeFileSync(`${dir}/${process.pid}.json`, JSON.stringify(figures));
  });
}
