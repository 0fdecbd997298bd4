/**
 * Measures the 3d puzzle against the solvers of test/support/three-d-solvers.ts over more pictures
 * than a test should draw, and its rendering time (docs/security.md). Not part of any suite:
 *
 *   pnpm exec tsup scripts/measure-3d.ts --format esm --out-dir node_modules/.cache/measure-3d && \
 *     node node_modules/.cache/measure-3d/measure-3d.js [pictures=400] [training=200] [openings=0,7]
 */
import { performance } from 'node:perf_hooks';
import { threeD } from '../src/domain/challenge/puzzles/three-d';
import { passRate } from '../test/support/solvers';
import { cellColour, colourBlobs, learnShapes, shapeClassifier } from '../test/support/three-d-solvers';

const pictures = Number(process.argv[2] ?? 400);
const training = Number(process.argv[3] ?? 200);

const times: number[] = [];
for (let i = 0; i < 100; i++) {
  const start = performance.now();
  await threeD.generate('en');
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
console.info(
  `render: median ${times[50]?.toFixed(1)} ms, mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(1)} ms over 100`,
);

const report = (name: string, rate: number) =>
  console.info(`${name}: ${(rate * 100).toFixed(1)} % of ${pictures} (${Math.round(rate * pictures)})`);
report('colour of each cell', await passRate(threeD, cellColour, pictures));
report('colour regions, largest first', await passRate(threeD, colourBlobs, pictures));
for (const opening of (process.argv[4] ?? '0,7').split(',').map(Number)) {
  const examples = await learnShapes(() => threeD.generate('en'), training, opening);
  report(
    `shape classifier (trained on ${training}, mask opened by ${opening} px)`,
    await passRate(threeD, shapeClassifier(examples, opening), pictures),
  );
}
