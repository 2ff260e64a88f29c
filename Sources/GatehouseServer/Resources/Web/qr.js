// A QR code encoder (ISO/IEC 18004:2015) for the page's authenticator-app enrolment: plain JavaScript,
// no libraries, no build step. It encodes text as UTF-8 in byte mode at error-correction level M, in the
// smallest version (1 to 40) that holds it: up to 2,331 bytes. Reed–Solomon error correction over
// GF(256), every one of the 8 data masks scored by the standard's four penalty rules (the lowest wins),
// the format information and, from version 7, the version information. It draws an SVG: one path of
// whole modules in a viewBox with a 4-module quiet zone, so it is sharp at any size.
//
//     GatehouseQR.encode(text)                    // { version, mask, size, modules: [[bool]] } (true = dark)
//     GatehouseQR.encode(text, { version, mask }) // a given version (at least the smallest) and mask
//     GatehouseQR.svg(text, label)                // an <svg role="img"> with `label` as its accessible name
//
// Text longer than version 40 holds throws a RangeError.
'use strict';

(function () {
  const ECC_M = 0; // level M's format bits (L 01, M 00, Q 11, H 10)
  // Level M, per version 1–40 (index 0 unused): error-correction codewords per block, and the number of blocks.
  const ECC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
    26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28];
  const BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
    17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
  const MIN_VERSION = 1;
  const MAX_VERSION = 40;

  // ---------- GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D), generator 2 ----------

  const EXP = new Uint8Array(512);
  const LOG = new Uint8Array(256);
  (function () {
    let x = 1;
    for (let i = 0; i < 255; i++) {
      EXP[i] = x;
      LOG[x] = i;
      x <<= 1;
      if (x & 0x100) x ^= 0x11d;
    }
    for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
  })();

  function multiply(a, b) {
    return a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]];
  }

  // The generator polynomial (x - 2^0)(x - 2^1)…(x - 2^(degree-1)), its coefficients from the highest
  // power down, without the leading 1.
  function generator(degree) {
    let poly = [1];
    for (let i = 0; i < degree; i++) {
      const next = new Array(poly.length + 1).fill(0);
      for (let j = 0; j < poly.length; j++) {
        next[j] ^= poly[j];
        next[j + 1] ^= multiply(poly[j], EXP[i]);
      }
      poly = next;
    }
    return poly.slice(1);
  }

  // The remainder of data·x^degree divided by the generator: the block's error-correction codewords.
  function remainder(data, gen) {
    const result = new Array(gen.length).fill(0);
    for (const byte of data) {
      const factor = byte ^ result.shift();
      result.push(0);
      for (let i = 0; i < gen.length; i++) result[i] ^= multiply(gen[i], factor);
    }
    return result;
  }

  // ---------- sizes ----------

  function sizeOf(version) { return version * 4 + 17; }

  function alignmentPositions(version) {
    if (version === 1) return [];
    const count = Math.floor(version / 7) + 2;
    const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
    const positions = [6];
    for (let pos = sizeOf(version) - 7; positions.length < count; pos -= step) positions.splice(1, 0, pos);
    return positions;
  }

  // Modules left for data and error correction once the function patterns and the format and version
  // information are placed, in whole codewords (the rest are remainder bits).
  function totalCodewords(version) {
    let modules = (16 * version + 128) * version + 64; // the symbol less finders, separators, timing, format and the dark module
    if (version >= 2) {
      const n = Math.floor(version / 7) + 2;
      modules -= (25 * n - 10) * n - 55; // alignment patterns (less where they cross the timing patterns)
      if (version >= 7) modules -= 36; // version information
    }
    return Math.floor(modules / 8);
  }

  function dataCodewords(version) {
    return totalCodewords(version) - ECC_PER_BLOCK[version] * BLOCKS[version];
  }

  function countBits(version) { return version < 10 ? 8 : 16; }

  function fits(version, byteCount) {
    return 4 + countBits(version) + 8 * byteCount <= 8 * dataCodewords(version);
  }

  // ---------- the bit stream and its codewords ----------

  function dataStream(bytes, version) {
    const bits = [];
    const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
    put(0b0100, 4); // byte mode
    put(bytes.length, countBits(version));
    for (const b of bytes) put(b, 8);
    const capacity = 8 * dataCodewords(version);
    put(0, Math.min(4, capacity - bits.length)); // terminator
    put(0, (8 - (bits.length % 8)) % 8);
    const codewords = [];
    for (let i = 0; i < bits.length; i += 8) {
      let byte = 0;
      for (let j = 0; j < 8; j++) byte = (byte << 1) | bits[i + j];
      codewords.push(byte);
    }
    for (let pad = 0xec; codewords.length < capacity / 8; pad ^= 0xec ^ 0x11) codewords.push(pad);
    return codewords;
  }

  // Splits the data into blocks (the short ones first), adds each block's error correction, and
  // interleaves: the data codewords column by column, then the error-correction codewords.
  function withErrorCorrection(data, version) {
    const blockCount = BLOCKS[version];
    const eccLength = ECC_PER_BLOCK[version];
    const total = totalCodewords(version);
    const shortBlocks = blockCount - (total % blockCount);
    const shortData = Math.floor(total / blockCount) - eccLength;
    const gen = generator(eccLength);
    const blocks = [];
    for (let i = 0, offset = 0; i < blockCount; i++) {
      const length = shortData + (i < shortBlocks ? 0 : 1);
      const block = data.slice(offset, offset + length);
      offset += length;
      blocks.push({ data: block, ecc: remainder(block, gen) });
    }
    const result = [];
    for (let i = 0; i <= shortData; i++) {
      for (const block of blocks) if (i < block.data.length) result.push(block.data[i]);
    }
    for (let i = 0; i < eccLength; i++) {
      for (const block of blocks) result.push(block.ecc[i]);
    }
    return result;
  }

  // ---------- the matrix ----------

  class Matrix {
    constructor(size) {
      this.size = size;
      this.dark = Array.from({ length: size }, () => new Array(size).fill(false));
      this.fixed = Array.from({ length: size }, () => new Array(size).fill(false)); // function patterns, format, version
    }

    set(row, col, dark) {
      this.dark[row][col] = dark;
      this.fixed[row][col] = true;
    }
  }

  function finder(m, top, left) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        const row = top + r;
        const col = left + c;
        if (row < 0 || col < 0 || row >= m.size || col >= m.size) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3)); // 0–2 the centre, 3 the dark border, 4 the separator
        m.set(row, col, ring !== 2 && ring !== 4);
      }
    }
  }

  function functionPatterns(m, version) {
    const size = m.size;
    finder(m, 0, 0);
    finder(m, 0, size - 7);
    finder(m, size - 7, 0);
    for (let i = 8; i < size - 8; i++) {
      m.set(6, i, i % 2 === 0);
      m.set(i, 6, i % 2 === 0);
    }
    const positions = alignmentPositions(version);
    const last = positions.length - 1;
    positions.forEach((row, i) => positions.forEach((col, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return; // under a finder
      for (let r = -2; r <= 2; r++) {
        for (let c = -2; c <= 2; c++) m.set(row + r, col + c, Math.max(Math.abs(r), Math.abs(c)) !== 1);
      }
    }));
    // Reserve the format areas (written per mask) and the dark module.
    formatInformation(m, 0);
    if (version >= 7) versionInformation(m, version);
  }

  // BCH(15,5) with the generator 0x537, masked with 0x5412.
  function formatBits(mask) {
    const data = (ECC_M << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    return ((data << 10) | rem) ^ 0x5412;
  }

  function formatInformation(m, mask) {
    const bits = formatBits(mask);
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const size = m.size;
    // Around the top-left finder: bits 0–7 down column 8 (skipping the timing row), 8–14 leftwards along row 8.
    for (let i = 0; i <= 5; i++) m.set(i, 8, bit(i));
    m.set(7, 8, bit(6));
    m.set(8, 8, bit(7));
    m.set(8, 7, bit(8));
    for (let i = 9; i < 15; i++) m.set(8, 14 - i, bit(i));
    // The copy: bits 0–7 along row 8 from the right edge, 8–14 up column 8 from the bottom.
    for (let i = 0; i < 8; i++) m.set(8, size - 1 - i, bit(i));
    for (let i = 8; i < 15; i++) m.set(size - 15 + i, 8, bit(i));
    m.set(size - 8, 8, true); // the dark module
  }

  // BCH(18,6) with the generator 0x1F25.
  function versionInformation(m, version) {
    let rem = version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = m.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      m.set(b, a, dark); // top right
      m.set(a, b, dark); // bottom left
    }
  }

  // The codewords' bits, most significant first, in two-column strips from the right, up then down,
  // skipping the vertical timing column and every fixed module; remainder bits stay light.
  function placeData(m, codewords) {
    const size = m.size;
    let i = 0;
    const total = codewords.length * 8;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let step = 0; step < size; step++) {
        const row = upward ? size - 1 - step : step;
        for (const col of [right, right - 1]) {
          if (m.fixed[row][col]) continue;
          m.dark[row][col] = i < total && ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i++;
        }
      }
    }
  }

  const MASKS = [
    (r, c) => (r + c) % 2 === 0,
    (r) => r % 2 === 0,
    (r, c) => c % 3 === 0,
    (r, c) => (r + c) % 3 === 0,
    (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
    (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
    (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
    (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
  ];

  function masked(m, mask) {
    const out = new Matrix(m.size);
    const test = MASKS[mask];
    for (let r = 0; r < m.size; r++) {
      for (let c = 0; c < m.size; c++) {
        out.dark[r][c] = m.fixed[r][c] ? m.dark[r][c] : m.dark[r][c] !== test(r, c);
        out.fixed[r][c] = m.fixed[r][c];
      }
    }
    formatInformation(out, mask);
    return out;
  }

  // ---------- the penalty (ISO/IEC 18004:2015 7.8.3.1, Table 11) ----------

  // N1: a run of 5 + i modules of one colour in a row or column scores 3 + i. N3: the finder-like
  // 1:1:3:1:1 pattern (dark light dark dark dark light dark) with 4 light modules on either side, the
  // space outside the symbol counting as light, scores 40 each time.
  function linePenalty(line) {
    let score = 0;
    let run = 1;
    for (let i = 1; i <= line.length; i++) {
      if (i < line.length && line[i] === line[i - 1]) {
        run++;
      } else {
        if (run >= 5) score += 3 + (run - 5);
        run = 1;
      }
    }
    const light = (from, to) => {
      for (let i = from; i < to; i++) if (i >= 0 && i < line.length && line[i]) return false;
      return true;
    };
    const pattern = [true, false, true, true, true, false, true];
    for (let i = 0; i + 7 <= line.length; i++) {
      if (pattern.every((dark, k) => line[i + k] === dark) && (light(i - 4, i) || light(i + 7, i + 11))) score += 40;
    }
    return score;
  }

  function penalty(dark) {
    const size = dark.length;
    let score = 0;
    let darkCount = 0;
    for (let r = 0; r < size; r++) {
      score += linePenalty(dark[r]);
      score += linePenalty(dark.map((row) => row[r]));
      for (let c = 0; c < size; c++) {
        if (dark[r][c]) darkCount++;
        // N2: each 2×2 block of one colour scores 3.
        if (r + 1 < size && c + 1 < size) {
          const v = dark[r][c];
          if (dark[r][c + 1] === v && dark[r + 1][c] === v && dark[r + 1][c + 1] === v) score += 3;
        }
      }
    }
    // N4: 10 for each full 5% the share of dark modules is away from 50%.
    score += 10 * Math.floor(Math.abs(20 * darkCount - 10 * size * size) / (size * size));
    return score;
  }

  // ---------- encoding ----------

  function utf8(text) {
    return Array.from(new TextEncoder().encode(text));
  }

  function smallestVersion(byteCount) {
    for (let v = MIN_VERSION; v <= MAX_VERSION; v++) if (fits(v, byteCount)) return v;
    throw new RangeError(`Too long for a QR code: ${byteCount} bytes (at most ${MAX_BYTES}).`);
  }

  function encode(text, options) {
    const opts = options || {};
    const bytes = utf8(String(text));
    const smallest = smallestVersion(bytes.length);
    const version = opts.version === undefined ? smallest : opts.version;
    if (!Number.isInteger(version) || version < smallest || version > MAX_VERSION) {
      throw new RangeError(`Version ${version} cannot hold ${bytes.length} bytes (from ${smallest} to ${MAX_VERSION}).`);
    }
    if (opts.mask !== undefined && !(Number.isInteger(opts.mask) && opts.mask >= 0 && opts.mask < 8)) {
      throw new RangeError(`No mask ${opts.mask} (0 to 7).`);
    }
    const base = new Matrix(sizeOf(version));
    functionPatterns(base, version);
    placeData(base, withErrorCorrection(dataStream(bytes, version), version));
    let best = null;
    const candidates = opts.mask === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : [opts.mask];
    const scores = [];
    for (const mask of candidates) {
      const m = masked(base, mask);
      const score = candidates.length > 1 ? penalty(m.dark) : 0;
      scores[mask] = score;
      if (!best || score < best.score) best = { mask, score, matrix: m };
    }
    return { version, mask: best.mask, size: base.size, modules: best.matrix.dark, penalties: scores };
  }

  const MAX_BYTES = (function () {
    let n = 0;
    while (fits(MAX_VERSION, n + 1)) n++;
    return n;
  })();

  // ---------- drawing ----------

  const SVG = 'http://www.w3.org/2000/svg';
  const QUIET = 4;

  // One path of unit squares (runs of dark modules in a row as one rectangle) in a viewBox that includes
  // the quiet zone; crispEdges keeps module edges sharp at any scale.
  function svg(text, label) {
    const code = encode(text);
    const size = code.size + 2 * QUIET;
    const root = document.createElementNS(SVG, 'svg');
    root.setAttribute('viewBox', `0 0 ${size} ${size}`);
    root.setAttribute('role', 'img');
    root.setAttribute('aria-label', label || 'QR code');
    root.setAttribute('shape-rendering', 'crispEdges');
    root.setAttribute('class', 'qr');
    root.dataset.version = String(code.version);
    root.dataset.mask = String(code.mask);
    const title = document.createElementNS(SVG, 'title');
    title.textContent = label || 'QR code';
    const background = document.createElementNS(SVG, 'rect');
    background.setAttribute('width', String(size));
    background.setAttribute('height', String(size));
    background.setAttribute('fill', '#ffffff');
    let d = '';
    code.modules.forEach((row, r) => {
      for (let c = 0; c < row.length; c++) {
        if (!row[c]) continue;
        let end = c;
        while (end + 1 < row.length && row[end + 1]) end++;
        d += `M${c + QUIET} ${r + QUIET}h${end - c + 1}v1h-${end - c + 1}z`;
        c = end;
      }
    });
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    path.setAttribute('fill', '#000000');
    root.append(title, background, path);
    return root;
  }

  window.GatehouseQR = Object.freeze({ encode, svg, penalty, MAX_BYTES, MAX_VERSION });
})();
