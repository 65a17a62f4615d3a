// Seeded randomness for the survey simulator. Everything random in a simulated survey comes from
// here, never from Math.random or the clock, so that one seed always gives byte-identical files.
// Streams are derived by hashing (seed, labels...) rather than by drawing from one shared
// generator: an object's light curve then does not change when another object is added.

/** 32-bit integer hash (murmur3 finaliser); good avalanche, cheap. */
export function hash32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Combine a seed with stream labels (numbers or short strings) into one 32-bit seed. */
export function mixSeed(seed: number, ...labels: (number | string)[]): number {
  let h = hash32(seed ^ 0x9e3779b9);
  for (const label of labels) {
    if (typeof label === 'number') {
      // Split so that labels above 2^32 (e.g. MJDs * 1e5) still contribute all their bits.
      h = hash32(h ^ hash32((label >>> 0) ^ 0x27d4eb2d));
      h = hash32(h ^ Math.floor(label / 4294967296));
    } else {
      for (let i = 0; i < label.length; i++) h = hash32(h ^ label.charCodeAt(i));
    }
  }
  return h;
}

/** sfc32: small, fast, passes PractRand; 128-bit state seeded through hash32. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | null = null;

  constructor(seed: number, ...labels: (number | string)[]) {
    const s = mixSeed(seed, ...labels);
    this.a = hash32(s ^ 0x1234567);
    this.b = hash32(s ^ 0x89abcdef);
    this.c = hash32(s ^ 0xdeadbeef);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.u32(); // discard the weakly mixed first outputs
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Uniform in log space: for periods, timescales and other scale-free parameters. */
  logUniform(lo: number, hi: number): number {
    return Math.exp(this.uniform(Math.log(lo), Math.log(hi)));
  }

  /** Standard normal via Box-Muller, caching the second value. */
  normal(mean = 0, sd = 1): number {
    if (this.spare !== null) {
      const z = this.spare;
      this.spare = null;
      return mean + sd * z;
    }
    const u = 1 - this.next(); // (0, 1], keeps log finite
    const r = Math.sqrt(-2 * Math.log(u));
    const th = 2 * Math.PI * this.next();
    this.spare = r * Math.sin(th);
    return mean + sd * r * Math.cos(th);
  }

  /** Normal clipped to [lo, hi] (by clamping: fine for the mild clips used here). */
  clippedNormal(mean: number, sd: number, lo: number, hi: number): number {
    return Math.min(hi, Math.max(lo, this.normal(mean, sd)));
  }

  /** Poisson variate (Knuth; only used for small means). */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }
}

/**
 * A table of standard normals that stamp generation slices at random offsets. Drawing ~8,000
 * Gaussian pixels per alert with Box-Muller would dominate the run time; reusing a 1M-entry table
 * costs one random offset per stamp and the noise still looks (and is, per stamp) Gaussian.
 */
export class NoiseTable {
  readonly values: Float32Array;

  constructor(seed: number, size = 1 << 20) {
    const rng = new Rng(seed, 'noise-table');
    this.values = new Float32Array(size);
    for (let i = 0; i < size; i++) this.values[i] = rng.normal();
  }

  /** A start offset leaving room for n consecutive values. */
  offset(rng: Rng, n: number): number {
    return rng.int(this.values.length - n);
  }
}
