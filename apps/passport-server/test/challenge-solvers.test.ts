import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Puzzle, Submission } from '../src/domain/challenge/puzzle';
import { slide } from '../src/domain/challenge/puzzles/slide';
import { text } from '../src/domain/challenge/puzzles/text';
import { threeD } from '../src/domain/challenge/puzzles/three-d';
import { whirl } from '../src/domain/challenge/puzzles/whirl';
import { ALPHABET } from '../src/domain/challenge/stroke-font';
import { dragTrace, evenTrace } from './support/challenge';
import { backend } from './support/server';
import {
  at,
  colourOutlineMatch,
  darkestWindow,
  outlineMatch,
  passRateOn,
  pixels,
  puzzlesOf,
  templateMatch,
} from './support/solvers';
import { cellColour, colourBlobs, learnShapes, shapeClassifier } from './support/three-d-solvers';
import { uprightAxis } from './support/whirl-solvers';

/**
 * Issue 10, item 2: the scripts that solved the old puzzles from their images alone, run against the
 * new ones. Each reads only what the client gets (the view), answers as the wire takes it, and is
 * judged by the puzzle's own check (and its fatal rule: a slide dropped on a decoy kills the puzzle).
 * 50 puzzles per kind. Bounded: one solver pass per puzzle, no search loops.
 *
 * The solvers of a kind are judged on one sample of that kind (drawn in `beforeAll`): a solver only
 * reads the puzzle and the check is pure, so each rate is still a sample of that many random puzzles,
 * and generating the pictures, not solving them, is what the file spends its time on. The classifiers'
 * training pictures are a sample of their own, apart from the ones they are judged on. The OCR runs
 * once over all the text puzzles (tesseract reads a list of images), not once per picture.
 *
 * The puzzles come from crypto randomness, so a pass rate is a sample: each bound below sits at least
 * three standard deviations above the rate measured, so the suite does not fail by chance (a bound at
 * the target would fail one run in a few). The measured rates are printed and recorded in
 * docs/security.md against the 10 % target. The puzzles touch no database: one project runs them.
 */

const PUZZLES = 50;

const [TEMPLATE_BOUND, DARKEST_BOUND, OUTLINE_BOUND, COLOUR_OUTLINE_BOUND] = [0.1, 0.1, 0.2, 0.24];

/** Hands out `puzzles` one by one, as a generator would (for the classifiers' training). */
const handOut = (puzzles: readonly Puzzle[]) => {
  let next = 0;
  return async () => {
    const puzzle = puzzles[next++];
    if (!puzzle) throw new Error('more training pictures than drawn');
    return puzzle;
  };
};

/**
 * The whirl solver: the centroid of the "sky" (the brighter, or the bluer, half of the disc)
 * against the rest points up; turn that back to upright. Three tries: bright, blue, and bright reversed.
 */
async function skyCentroid(puzzle: Puzzle): Promise<Submission[]> {
  const image = await pixels(puzzle.view.image);
  const c = image.width / 2;
  const r = c - 4;
  const score = { bright: [] as number[], blue: [] as number[] };
  const xy: [number, number][] = [];
  for (let y = 0; y < image.height; y += 2) {
    for (let x = 0; x < image.width; x += 2) {
      if ((x - c) ** 2 + (y - c) ** 2 > r * r) continue;
      const q = at(image, x, y);
      const [red, green, blue] = [
        image.data[q] as number,
        image.data[q + 1] as number,
        image.data[q + 2] as number,
      ];
      score.bright.push(red + green + blue);
      score.blue.push(blue - red);
      xy.push([x - c, y - c]);
    }
  }
  const upAngle = (values: number[]) => {
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    let vx = 0;
    let vy = 0;
    values.forEach((v, i) => {
      const [x, y] = xy[i] as [number, number];
      const w = v > mean ? 1 : -1;
      vx += w * x;
      vy += w * y;
    });
    // Clockwise degrees from the picture's top to the sky's side.
    return ((Math.atan2(vx, -vy) * 180) / Math.PI + 360) % 360;
  };
  const bright = upAngle(score.bright);
  const blue = upAngle(score.blue);
  return [bright, blue, bright + 180].map((turned) => ({ angle: Math.round((360 - (turned % 360)) % 360) }));
}

describe.runIf(backend === 'sqlite')('the slide puzzle against scripts', () => {
  let sample: Puzzle[] = [];
  beforeAll(async () => {
    sample = await puzzlesOf(slide, PUZZLES);
  }, 300_000);
  const passRate = (solve: (puzzle: Puzzle) => Promise<Submission[]>) => passRateOn(slide, sample, solve);
  // Measured over seven runs of 50 and three of 200 (docs/security.md). Template match and darkest
  // window: 0 % in every run, so the bound is the target. Outline match on lightness: 6-12 % over 50,
  // 6-8 % over 200 (72 of 950, 7.6 %); its bound, 20 %, is three standard deviations of a rate over
  // 50 above 8 %. On colour edges: 4-14 % over 50, 9 % over 200 (62 of 650, 9.5 %); bound 24 %.
  it(`holds the issue's template match (piece against the darkened gap) near its target`, async () => {
    const rate = await passRate(templateMatch);
    console.info(`slide, template match: ${(rate * 100).toFixed(0)} % of ${PUZZLES} within its tries`);
    // The shadow decoy (the piece's colour at half its lightness, another outline) is what it finds.
    expect(rate).toBeLessThanOrEqual(TEMPLATE_BOUND);
  }, 300_000);

  it('holds a gap finder (the darkest windows on the row) near its target', async () => {
    const rate = await passRate(darkestWindow);
    console.info(`slide, darkest window: ${(rate * 100).toFixed(0)} % of ${PUZZLES} within its tries`);
    // The shadow decoy is the darkest gap; the others sit at the lightness of the picture around them.
    expect(rate).toBeLessThanOrEqual(DARKEST_BOUND);
  }, 300_000);

  it("holds a shape matcher (the piece's outline against the picture's edges) near its target", async () => {
    const rate = await passRate(outlineMatch);
    console.info(`slide, outline match: ${(rate * 100).toFixed(0)} % of ${PUZZLES} within its tries`);
    // Every gap carries the same lines (every outline a piece can have) and its fill differs from the
    // picture in colour, not lightness: the outline finds the same edges at each gap, and the dark
    // shadow decoy's the strongest. A matcher on colour regions would do better (docs/security.md).
    expect(rate).toBeLessThanOrEqual(OUTLINE_BOUND);
  }, 300_000);

  it('holds the same shape matcher on colour edges near its target', async () => {
    const rate = await passRate(colourOutlineMatch);
    console.info(
      `slide, outline match on colour edges: ${(rate * 100).toFixed(0)} % of ${PUZZLES} within its tries`,
    );
    // The fills' colour borders show up now, but the guide lines are still the same at every gap and
    // the shadow decoy's border is still the strongest.
    expect(rate).toBeLessThanOrEqual(COLOUR_OUTLINE_BOUND);
  }, 300_000);

  it('refuses the forged trace: evenly spaced in distance and time, ending on the gap', async () => {
    const puzzle = await slide.generate('en');
    if (puzzle.answer.kind !== 'slide') throw new Error('a slide answer');
    const { x } = puzzle.answer;
    expect(slide.check(puzzle.answer, { x, trace: evenTrace(x) })).toBe(false);
    expect(slide.check(puzzle.answer, { x, trace: dragTrace(x) })).toBe(true);
  }, 300_000);
});

describe.runIf(backend === 'sqlite')('the whirl puzzle against scripts', () => {
  // 100 pictures, not 50: the centroid is no better than a blind turn (16° of 360°, one try: 4.4 %),
  // and over 50 a blind guesser passes more than 5 about 4 % of the time; over 100 more than 10, 0.6 %.
  // Measured 4 % and 9 %: the bound is 18 %, three standard deviations above a 9 % rate.
  let sample: Puzzle[] = [];
  beforeAll(async () => {
    sample = await puzzlesOf(whirl, 2 * PUZZLES);
  }, 300_000);
  it(`holds the issue's sky/ground centroid near a blind turn over ${2 * PUZZLES} pictures`, async () => {
    const rate = await passRateOn(whirl, sample, skyCentroid);
    console.info(`whirl, sky centroid: ${(rate * 100).toFixed(0)} % of ${2 * PUZZLES} within its tries`);
    expect(rate).toBeLessThanOrEqual(0.18);
  }, 300_000);

  // NOT held: what stands in the picture gives its up away. Measured 52 % of 400 and 52.5 % of 200;
  // the bound, 70 %, is three standard deviations above 52 % over 100 and only guards against worse.
  it(`is read by the door and trunks' axis and the window's side: about half of ${2 * PUZZLES} pictures`, async () => {
    const rate = await passRateOn(whirl, sample, uprightAxis);
    console.info(`whirl, upright axis: ${(rate * 100).toFixed(0)} % of ${2 * PUZZLES} within its tries`);
    expect(rate).toBeLessThanOrEqual(0.7);
  }, 300_000);
});

describe.runIf(backend === 'sqlite')('the 3d puzzle against scripts', () => {
  // 100 pictures, as for whirl: one try per picture. 21 solids: a blind pick among them passes 1 in 21
  // (4.8 %), among the 20 of the prompt's colour 1 in 20. Measured (runs of 100 here, of 300-400 with
  // scripts/measure-3d.ts): each cell 0-1 %, regions 0-3 %, classifier 0-2 %, all about 1 % pooled:
  // their bound, 5 %, is more than three standard deviations above 1 % over 100. The opened classifier:
  // 2-9 % over 100, 6.0 % and 6.3 % over 400 (83 of 1,400, 5.9 %): its bound, 14 %, is five standard
  // deviations above 5.9 % over the 200 it draws.
  const [BOUND, OPENED_BOUND] = [0.05, 0.14];
  // One sample of 200 fresh pictures judges every solver (the first 100 of it all but the opened
  // classifier, which draws 200); 100 more, apart from it, train both classifiers.
  let fresh: Puzzle[] = [];
  let training: Puzzle[] = [];
  beforeAll(async () => {
    fresh = await puzzlesOf(threeD, 4 * PUZZLES);
    training = await puzzlesOf(threeD, 2 * PUZZLES);
  }, 300_000);
  const first100 = () => fresh.slice(0, 2 * PUZZLES);
  it(`holds the issue's colour-of-each-cell solver well below its old 15/15, over ${2 * PUZZLES} pictures`, async () => {
    const rate = await passRateOn(threeD, first100(), cellColour);
    console.info(`3d, colour of each cell: ${(rate * 100).toFixed(0)} % of ${2 * PUZZLES} within its tries`);
    // Measured 100 % on the old puzzle (5 solids, 5 colours, 3 tries). Now the colour is everywhere:
    // 20 of 21 solids and the paint between them.
    expect(rate).toBeLessThanOrEqual(BOUND);
  }, 300_000);

  it(`holds the same script adapted to the layout (regions of the colour, largest first)`, async () => {
    const rate = await passRateOn(threeD, first100(), colourBlobs);
    console.info(`3d, colour regions: ${(rate * 100).toFixed(0)} % of ${2 * PUZZLES} within its tries`);
    // A region of the colour is several solids and the flat paint between them: its centroid lands
    // between solids.
    expect(rate).toBeLessThanOrEqual(BOUND);
  }, 300_000);

  it('holds a shape classifier trained on 100 labelled pictures, on fresh ones', async () => {
    const examples = await learnShapes(handOut(training), 2 * PUZZLES);
    const rate = await passRateOn(threeD, first100(), shapeClassifier(examples));
    console.info(`3d, shape classifier: ${(rate * 100).toFixed(0)} % of ${2 * PUZZLES} within its tries`);
    // Against the puzzle before the paint (12 solids, apart) it picked the target 96 % of 200 times:
    // a region of the colour was one solid. Now a region is several solids and paint in outlines no
    // solid has, so neither its measures nor its centroid are a solid's.
    expect(rate).toBeLessThanOrEqual(BOUND);
  }, 300_000);

  it('holds the classifier on the mask opened by 9 px (the bands of paint gone) near a blind pick', async () => {
    const examples = await learnShapes(handOut(training), 2 * PUZZLES, 9);
    // 200 pictures, not 100: one run of 100 read 15 % (against 4.5-8.5 %, 6.2 % on average, in twelve runs of 200), so the
    // sample's spread, not the puzzle, came near the bound.
    const rate = await passRateOn(threeD, fresh, shapeClassifier(examples, 9));
    console.info(`3d, shape classifier, mask opened: ${(rate * 100).toFixed(0)} % of ${4 * PUZZLES}`);
    // Opening erases the bands and most of each solid with them: what is left is a core per solid
    // and per splotch, nearly shapeless, so it does little better than a blind pick among 20.
    expect(rate).toBeLessThanOrEqual(OPENED_BOUND);
  }, 300_000);
});

/** Debian's tesseract (the README's test command installs it); without it this part is skipped. */
const hasTesseract = spawnSync('tesseract', ['--version'], { stdio: 'ignore' }).status === 0;

describe.runIf(backend === 'sqlite' && hasTesseract)('the text puzzle against OCR', () => {
  /**
   * Off-the-shelf OCR, as a script would use it: one line, the puzzle's alphabet only. One tesseract
   * over the list of images (its start-up, not the reading, is most of a single picture's cost). Its
   * TSV output names each word's page, so a picture it cannot read at all is an empty answer in its
   * place (the plain text's form feeds between pages go missing for some unreadable pictures).
   */
  const ocr = (pngs: Buffer[]): string[] => {
    const dir = mkdtempSync(join(tmpdir(), 'portico-ocr-'));
    try {
      const files = pngs.map((png, i) => {
        const file = join(dir, `${i}.png`);
        writeFileSync(file, png);
        return file;
      });
      writeFileSync(join(dir, 'list.txt'), `${files.join('\n')}\n`);
      const run = spawnSync(
        'tesseract',
        [join(dir, 'list.txt'), 'stdout', '--psm', '7', '-c', `tessedit_char_whitelist=${ALPHABET}`, 'tsv'],
        { encoding: 'utf8' },
      );
      // Its exit status is not a verdict: a picture it cannot read fails the run's status, not its output.
      if (!String(run.stdout).startsWith('level\t'))
        throw new Error(`tesseract wrote no table: ${run.stderr}`);
      const pages = pngs.map(() => '');
      // Columns: level, page_num, block_num, par_num, line_num, word_num, left, top, width, height, conf,
      // text; level 5 is a word. Pages are numbered from 1.
      for (const row of String(run.stdout).split('\n').slice(1)) {
        const columns = row.split('\t');
        if (columns[0] !== '5') continue;
        const page = Number(columns[1]) - 1;
        if (!(page >= 0 && page < pages.length)) throw new Error(`tesseract named page ${columns[1]}`);
        pages[page] += columns[11] ?? '';
      }
      return pages.map((page) => page.replace(/\s+/g, '').toUpperCase());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it(`reads no more than the target of ${PUZZLES} puzzles, cleaned up as OCR wants them`, async () => {
    const puzzles = await puzzlesOf(text, PUZZLES);
    const cleaned = await Promise.all(
      puzzles.map((puzzle) => {
        const png = Buffer.from(puzzle.view.image.replace(/^data:image\/png;base64,/, ''), 'base64');
        // The usual clean-up before OCR: three times larger, grey, thresholded (noise dots and thin
        // lines fall away, the strokes stay).
        return sharp(png).resize({ width: 780 }).grayscale().threshold(110).png().toBuffer();
      }),
    );
    const read = ocr(cleaned);
    const passed = puzzles.filter((puzzle, i) =>
      text.check(puzzle.answer, { text: read[i] as string }),
    ).length;
    const rate = passed / PUZZLES;
    console.info(`text, tesseract on the cleaned-up image: ${(rate * 100).toFixed(0)} % of ${PUZZLES}`);
    // Measured 0 of 50, and 0 of 50 on the image as it comes (none with even 4 of the 5 characters
    // right): the bound is the target.
    expect(rate).toBeLessThanOrEqual(0.1);
  }, 300_000);
});
