// SVG drawings of every piece in both looks, drawn in a box about 44 units wide centred on 0,0.
//
// Classic: ivory and black tiles with coloured bugs (gold bee, brown spider, purple beetle…),
// as on the real tiles. Football (rulebook 004): Blanco tiles (White) against Grana (Black), with the
// club's objects: Escudo (crest), Muro (brick wall), Rayo (lightning), Balón, Bota, Escudo
// Imperial (crest in a laurel; the crown is the Escudo's), Acho Pimentón (a pepper), Portero (goalkeeper glove), Extremo
// (a winger's run: straight, then cutting in at 60°).

export const HEX_SIZE = 30; // circumradius of a cell, in board units

export function hexPoints(size = HEX_SIZE - 1.5) {
  const points = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 90);
    points.push(`${(size * Math.cos(angle)).toFixed(2)},${(size * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

const CLASSIC_BUG_COLORS = {
  Q: "#e3a600",
  S: "#8b4a2b",
  B: "#7a4fa0",
  G: "#3a9a3a",
  A: "#2f6fc4",
  M: "#8e8e8e",
  L: "#d22f2f",
  P: "#23998c",
  D: "#23b0d6",
};

export const TILE_COLORS = {
  classic: [
    { fill: "#f4efe2", stroke: "#8a806c" },
    { fill: "#272421", stroke: "#000000" },
  ],
  football: [
    { fill: "#fbfbf8", stroke: "#8c8c8c" },
    { fill: "#7b1e34", stroke: "#4a0f1d" },
  ],
};

function classicDrawing(letter, dark) {
  const c = CLASSIC_BUG_COLORS[letter];
  const ink = dark ? "#f4efe2" : "#222";
  const legs = (paths) => `<g stroke="${c}" stroke-width="2.2" fill="none" stroke-linecap="round">${paths}</g>`;
  switch (letter) {
    case "Q": // a bee: striped body, wings, head
      return `
        <ellipse cx="-9" cy="-6" rx="8" ry="12" fill="${dark ? "#cfe7f5" : "#bcdff2"}" opacity="0.9" transform="rotate(-25 -9 -6)"/>
        <ellipse cx="9" cy="-6" rx="8" ry="12" fill="${dark ? "#cfe7f5" : "#bcdff2"}" opacity="0.9" transform="rotate(25 9 -6)"/>
        <ellipse cx="0" cy="4" rx="9" ry="14" fill="${c}"/>
        <rect x="-9" y="0" width="18" height="3.5" fill="#222"/>
        <rect x="-8" y="7" width="16" height="3.5" fill="#222"/>
        <circle cx="0" cy="-12" r="5.5" fill="#222"/>
        <path d="M-4 -19 L-2 -15 L0 -19 L2 -15 L4 -19" stroke="${c}" stroke-width="1.8" fill="none"/>`;
    case "S": {
      // A spider seen from above: a small head-and-chest with fangs, a big striped abdomen, and
      // eight long legs, four a side, each bent at a high knee, so it reads as a spider at a
      // glance on both tiles (a lighter brown and a dark outline keep it clear on the black tile).
      const body = dark ? "#c47a4a" : c;
      const outline = dark ? "#f4efe2" : "#3b1d0f";
      // The left legs, from the body to the knee to the foot; the right ones mirror them.
      const left = [
        [[-3, -8], [-9, -17], [-15, -21]],
        [[-4, -6], [-13, -11], [-21, -9]],
        [[-4, -4], [-14, -2], [-21, 5]],
        [[-3, -2], [-10, 6], [-15, 16]],
      ];
      const legPaths = [-1, 1]
        .flatMap((flip) => left.map((leg) => `M${leg.map(([x, y]) => `${-flip * x} ${y}`).join(" L")}`))
        .map((path) => `<path data-part="leg" d="${path}"/>`)
        .join("");
      return `
        <g stroke="${body}" stroke-width="2.6" fill="none" stroke-linecap="round" stroke-linejoin="round">${legPaths}</g>
        <ellipse data-part="abdomen" cx="0" cy="9" rx="8" ry="10.5" fill="${body}" stroke="${outline}" stroke-width="1.2"/>
        <path d="M-4 4 Q0 7 4 4 M-5 9 Q0 12 5 9 M-4 14 Q0 17 4 14" stroke="${outline}" stroke-width="1.4" fill="none" opacity="0.8"/>
        <ellipse data-part="head" cx="0" cy="-5" rx="5" ry="5.5" fill="${body}" stroke="${outline}" stroke-width="1.2"/>
        <path d="M-2 -10 L-2.5 -13.5 M2 -10 L2.5 -13.5" stroke="${outline}" stroke-width="1.6" stroke-linecap="round"/>
        <circle cx="-1.8" cy="-6.5" r="1.1" fill="${ink}"/><circle cx="1.8" cy="-6.5" r="1.1" fill="${ink}"/>`;
    }
    case "B": // a beetle: split shell, head, six short legs
      return `
        ${legs("M-10 -4 L-17 -9 M-11 3 L-18 3 M-10 10 L-16 16 M10 -4 L17 -9 M11 3 L18 3 M10 10 L16 16")}
        <ellipse cx="0" cy="4" rx="11" ry="14" fill="${c}"/>
        <line x1="0" y1="-9" x2="0" y2="18" stroke="${dark ? "#272421" : "#f4efe2"}" stroke-width="1.6"/>
        <circle cx="0" cy="-12" r="5.5" fill="${c}"/>
        <path d="M-3 -16 L-6 -21 M3 -16 L6 -21" stroke="${c}" stroke-width="2" fill="none"/>`;
    case "G": // a grasshopper: long body, big bent hind legs, antennae
      return `
        <path d="M-16 8 Q-2 -6 14 -8" stroke="${c}" stroke-width="8" fill="none" stroke-linecap="round"/>
        <path d="M-4 4 L6 -10 L12 12 M-10 8 L-2 -4 L0 16" stroke="${c}" stroke-width="2.6" fill="none" stroke-linejoin="round"/>
        <circle cx="15" cy="-9" r="4.5" fill="${c}"/>
        <path d="M17 -13 Q20 -20 13 -22 M15 -13 Q14 -19 8 -20" stroke="${c}" stroke-width="1.5" fill="none"/>`;
    case "A": // an ant: head, thorax, abdomen, legs, antennae
      return `
        ${legs("M-2 -2 L-13 -9 M-2 1 L-14 2 M-2 3 L-12 12 M2 -2 L13 -9 M2 1 L14 2 M2 3 L12 12")}
        <circle cx="0" cy="-13" r="5" fill="${c}"/>
        <ellipse cx="0" cy="-2" rx="4" ry="5.5" fill="${c}"/>
        <ellipse cx="0" cy="12" rx="7" ry="9" fill="${c}"/>
        <path d="M-2 -17 Q-6 -22 -10 -21 M2 -17 Q6 -22 10 -21" stroke="${c}" stroke-width="1.6" fill="none"/>`;
    case "M": // a mosquito: slim body, long legs, proboscis, clear wings
      return `
        <ellipse cx="-8" cy="-2" rx="5" ry="11" fill="none" stroke="${c}" stroke-width="1.4" transform="rotate(-35 -8 -2)"/>
        <ellipse cx="8" cy="-2" rx="5" ry="11" fill="none" stroke="${c}" stroke-width="1.4" transform="rotate(35 8 -2)"/>
        <g stroke="${c}" stroke-width="1.4" fill="none">
          <path d="M-2 4 L-14 10 L-20 20 M-2 6 L-8 14 L-10 22 M2 4 L14 10 L20 20 M2 6 L8 14 L10 22 M-2 1 L-16 0 L-22 -6 M2 1 L16 0 L22 -6"/>
        </g>
        <ellipse cx="0" cy="6" rx="3.5" ry="11" fill="${c}"/>
        <circle cx="0" cy="-8" r="4" fill="${c}"/>
        <line x1="0" y1="-11" x2="0" y2="-22" stroke="${c}" stroke-width="1.6"/>`;
    case "L": // a ladybug: red dome, black middle line and spots
      return `
        <circle cx="0" cy="-13" r="5" fill="#222" stroke="${dark ? "#f4efe2" : "none"}" stroke-width="0.8"/>
        <circle cx="0" cy="3" r="14" fill="${c}"/>
        <line x1="0" y1="-11" x2="0" y2="17" stroke="#222" stroke-width="1.8"/>
        <circle cx="-6" cy="-2" r="2.8" fill="#222"/><circle cx="6" cy="-2" r="2.8" fill="#222"/>
        <circle cx="-8" cy="8" r="2.5" fill="#222"/><circle cx="8" cy="8" r="2.5" fill="#222"/>
        <circle cx="-3" cy="12" r="1.8" fill="#222"/><circle cx="3" cy="12" r="1.8" fill="#222"/>`;
    case "P": // a pillbug: segmented oval shell
      return `
        <ellipse cx="0" cy="2" rx="12" ry="17" fill="${c}"/>
        <g stroke="${dark ? "#272421" : "#f4efe2"}" stroke-width="1.5" fill="none">
          <path d="M-11 -7 Q0 -3 11 -7"/><path d="M-12 -1 Q0 3 12 -1"/><path d="M-12 5 Q0 9 12 5"/><path d="M-10 11 Q0 15 10 11"/>
        </g>
        <path d="M-4 -14 L-8 -20 M4 -14 L8 -20" stroke="${c}" stroke-width="1.8"/>`;
    case "D": // a dragonfly: long thin body, four wings
      return `
        <ellipse cx="-11" cy="-7" rx="11" ry="4" fill="${c}" opacity="0.55" transform="rotate(-12 -11 -7)"/>
        <ellipse cx="11" cy="-7" rx="11" ry="4" fill="${c}" opacity="0.55" transform="rotate(12 11 -7)"/>
        <ellipse cx="-10" cy="1" rx="10" ry="3.5" fill="${c}" opacity="0.55" transform="rotate(14 -10 1)"/>
        <ellipse cx="10" cy="1" rx="10" ry="3.5" fill="${c}" opacity="0.55" transform="rotate(-14 10 1)"/>
        <rect x="-2" y="-10" width="4" height="30" rx="2" fill="${c}"/>
        <circle cx="0" cy="-13" r="4.5" fill="${c}"/>`;
    default:
      return "";
  }
}

function footballDrawing(letter, color) {
  // White plays Blanco, Black plays Grana (panal/hive/names.py says why). Grana tiles carry white
  // and gold drawings; Blanco tiles carry grana ones.
  const grana = color === 1;
  const fg = grana ? "#ffffff" : "#7b1e34";
  const accent = grana ? "#f2c14e" : "#c7972b";
  const back = grana ? "#7b1e34" : "#fbfbf8";
  const shield = (extra = "") => `
    <path d="M-13 -14 L13 -14 L13 2 Q13 14 0 20 Q-13 14 -13 2 Z" fill="${fg}" stroke="${accent}" stroke-width="2"/>
    <path d="M-5 -14 L-5 17 M5 -14 L5 17" stroke="${back}" stroke-width="3"/>
    ${extra}`;
  switch (letter) {
    // The Escudo, the piece to surround, wears the crown (players took a crowned Escudo Imperial
    // for the queen); the Escudo Imperial wears a laurel wreath.
    case "Q": // Escudo: the club crest, crowned
      return `<g transform="translate(0 4) scale(0.85)">${shield(`<circle cx="0" cy="-1" r="4.5" fill="${accent}"/>`)}</g>
        <path d="M-10 -12 L-10 -21 L-5 -16 L0 -23 L5 -16 L10 -21 L10 -12 Z" fill="${accent}" stroke="${fg}" stroke-width="1"/>`;
    case "M": // Escudo Imperial: the crest in a laurel wreath
      return `<g transform="scale(0.75)">${shield()}</g>
        <g fill="none" stroke="${accent}" stroke-width="2.5" stroke-linecap="round"><path d="M-8 19 Q-21 10 -16 -16"/><path d="M8 19 Q21 10 16 -16"/></g>
        <g fill="${accent}"><circle cx="-18" cy="-6" r="2.5"/><circle cx="-17" cy="5" r="2.5"/><circle cx="18" cy="-6" r="2.5"/><circle cx="17" cy="5" r="2.5"/></g>`;
    case "B": // Muro: a brick wall
      return `
        <g fill="${fg}" stroke="${back}" stroke-width="1.6">
          <rect x="-16" y="-14" width="16" height="8"/><rect x="0" y="-14" width="16" height="8"/>
          <rect x="-20" y="-6" width="12" height="8"/><rect x="-8" y="-6" width="16" height="8"/><rect x="8" y="-6" width="12" height="8"/>
          <rect x="-16" y="2" width="16" height="8"/><rect x="0" y="2" width="16" height="8"/>
          <rect x="-20" y="10" width="12" height="8"/><rect x="-8" y="10" width="16" height="8"/><rect x="8" y="10" width="12" height="8"/>
        </g>
        <rect x="-20" y="-14" width="40" height="32" fill="none" stroke="${accent}" stroke-width="1.6"/>`;
    case "G": // Rayo: a lightning bolt
      return `<path d="M4 -22 L-12 3 L-1 3 L-6 22 L12 -4 L1 -4 Z" fill="${accent}" stroke="${fg}" stroke-width="2" stroke-linejoin="round"/>`;
    case "S": // Balón: a football
      return `
        <circle cx="0" cy="0" r="16" fill="${fg}" stroke="${accent}" stroke-width="1.5"/>
        <path d="M0 -6 L6 -2 L4 5 L-4 5 L-6 -2 Z" fill="${back}"/>
        <g stroke="${back}" stroke-width="1.6" fill="none">
          <path d="M0 -6 L0 -15 M6 -2 L14 -6 M4 5 L9 13 M-4 5 L-9 13 M-6 -2 L-14 -6"/>
        </g>`;
    case "A": // Bota: a football boot with studs
      return `
        <path d="M-8 -16 L4 -16 L4 -2 Q10 -1 18 4 Q21 8 18 11 L-14 11 Q-17 11 -17 7 L-13 -4 Z" fill="${fg}" stroke="${accent}" stroke-width="1.8" stroke-linejoin="round"/>
        <path d="M-6 -10 L3 -10 M-7 -5 L3 -5" stroke="${back}" stroke-width="1.6"/>
        <g fill="${accent}"><rect x="-12" y="11" width="3" height="5"/><rect x="-3" y="11" width="3" height="5"/><rect x="6" y="11" width="3" height="5"/><rect x="13" y="11" width="3" height="5"/></g>`;
    case "L": // Acho Pimentón: a red pepper with a green stalk
      return `
        <path d="M-2 -12 Q-16 -12 -14 4 Q-12 18 0 20 Q12 18 14 4 Q16 -12 2 -12 Z" fill="#d8262c" stroke="${fg}" stroke-width="2"/>
        <path d="M0 -12 Q0 -20 6 -22" stroke="#2e8b3a" stroke-width="3.5" fill="none" stroke-linecap="round"/>
        <path d="M-7 -6 Q-10 4 -6 12" stroke="#ff8a80" stroke-width="2" fill="none"/>`;
    case "P": // Portero: a goalkeeper's glove
      return `
        <path d="M-10 18 L-10 2 L-15 -4 Q-17 -8 -13 -9 L-8 -3 L-8 -15 Q-8 -18 -5 -18 Q-2 -18 -2 -15 L-2 -7 L-2 -19 Q-2 -22 1 -22 Q4 -22 4 -19 L4 -7 L4 -17 Q4 -20 7 -20 Q10 -20 10 -17 L10 -5 L10 -11 Q10 -14 13 -14 Q15 -14 15 -11 L15 6 Q15 14 8 18 Z" fill="${fg}" stroke="${accent}" stroke-width="1.8" stroke-linejoin="round"/>
        <rect x="-11" y="12" width="22" height="6" fill="${accent}"/>`;
    case "D": // Extremo: a run down the wing, then a cut inside at 60°, towards the ball
      return `
        <path d="M-14 18 L-14 -6 L2 -18" stroke="${fg}" stroke-width="4" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
        <path d="M2 -18 L-6 -18 M2 -18 L-1 -11" stroke="${fg}" stroke-width="4" fill="none" stroke-linecap="round"/>
        <circle cx="11" cy="-4" r="6" fill="${accent}" stroke="${fg}" stroke-width="1.5"/>
        <path d="M-20 18 L-8 18" stroke="${accent}" stroke-width="2"/>`;
    default:
      return "";
  }
}

// The drawing of one piece (tile + figure) as SVG markup, centred on 0,0. `number: false` leaves
// out the piece's number (a hand shows how many are left instead).
export function pieceMarkup(piece, look, { number: withNumber = true } = {}) {
  const color = piece[0] === "w" ? 0 : 1;
  const letter = piece[1].toUpperCase();
  const tile = TILE_COLORS[look][color];
  const figure = look === "football" ? footballDrawing(letter, color) : classicDrawing(letter, color === 1);
  const number = withNumber && piece.length > 2 ? piece.slice(2) : "";
  const numberColor = look === "football" ? (color === 1 ? "#f2c14e" : "#7b1e34") : color === 0 ? "#6d6455" : "#c9c2b2";
  return `
    <polygon class="tile" points="${hexPoints()}" fill="${tile.fill}" stroke="${tile.stroke}" stroke-width="2"/>
    <g class="figure" transform="scale(0.92)">${figure}</g>
    ${number ? `<text class="piece-number" x="14" y="21" fill="${numberColor}">${number}</text>` : ""}`;
}

// A standalone <svg> of one piece, for the hands and the piece legend.
export function pieceSvg(piece, look, size = 48, options = {}) {
  const half = HEX_SIZE + 2;
  return `<svg class="piece-icon" width="${size}" height="${size}" viewBox="${-half} ${-half} ${2 * half} ${2 * half}" aria-hidden="true" focusable="false">${pieceMarkup(piece, look, options)}</svg>`;
}
