// The floor for `ah.http.get`: the same GET made with Node's fetch (the client ah uses) in a bare
// Node process, body read whole. Usage: node http-floor.mjs URL COUNT IN_FLIGHT → JSON on stdout.
const [url, countText, inFlightText] = process.argv.slice(2);
const count = Number(countText);
const inFlight = Number(inFlightText);
const once = async () => {
  const response = await fetch(url);
  await response.text();
};
for (let i = 0; i < 300; i += 1) await once();
const samples = [];
let issued = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (issued < count) {
      issued += 1;
      const t = performance.now();
      await once();
      samples.push(performance.now() - t);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
samples.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ p50: samples[Math.floor(samples.length / 2)], callsPerSecond: samples.length / seconds }));
