// A summary fixture.
import fs from "fs";

const v0 = 0; // filler
const v1 = 1; // filler
const v2 = 2; // filler
const v3 = 3; // filler
const v4 = 4; // filler
const v5 = 5; // filler
const v6 = 6; // filler
const v7 = 7; // filler
const v8 = 8; // filler
const v9 = 9; // filler
const v10 = 10; // filler
const v11 = 11; // filler
const v12 = 12; // filler
const v13 = 13; // filler
const v14 = 14; // filler
const v15 = 15; // filler
const v16 = 16; // filler
const v17 = 17; // filler
const v18 = 18; // filler
const v19 = 19; // filler
const v20 = 20; // filler
const v21 = 21; // filler
const v22 = 22; // filler
const v23 = 23; // filler
const v24 = 24; // filler
const v25 = 25; // filler
const v26 = 26; // filler
const v27 = 27; // filler
const v28 = 28; // filler
const v29 = 29; // filler
const v30 = 30; // filler
const v31 = 31; // filler
const v32 = 32; // filler
const v33 = 33; // filler
const v34 = 34; // filler
const v35 = 35; // filler
const v36 = 36; // filler
const v37 = 37; // filler
const v38 = 38; // filler
const v39 = 39; // filler
const v40 = 40; // filler
const v41 = 41; // filler
const v42 = 42; // filler
const v43 = 43; // filler
const v44 = 44; // filler
const v45 = 45; // filler
const v46 = 46; // filler
const v47 = 47; // filler
const v48 = 48; // filler
const v49 = 49; // filler
const v50 = 50; // filler
const v51 = 51; // filler
const v52 = 52; // filler
const v53 = 53; // filler
const v54 = 54; // filler
const v55 = 55; // filler
const v56 = 56; // filler
const v57 = 57; // filler
const v58 = 58; // filler
const v59 = 59; // filler
const v60 = 60; // filler
const v61 = 61; // filler
const v62 = 62; // filler
const v63 = 63; // filler
const v64 = 64; // filler
const v65 = 65; // filler
const v66 = 66; // filler
const v67 = 67; // filler
const v68 = 68; // filler
const v69 = 69; // filler
const v70 = 70; // filler
const v71 = 71; // filler
const v72 = 72; // filler
const v73 = 73; // filler
const v74 = 74; // filler

export function long(a, b) {
  a += b * 0;
  a += b * 1;
  a += b * 2;
  a += b * 3;
  a += b * 4;
  a += b * 5;
  a += b * 6;
  a += b * 7;
  a += b * 8;
  a += b * 9;
  a += b * 10;
  a += b * 11;
  return a;
}

function short() {
  return 1;
}

class Thing {
  constructor() {
    this.n0 = 0;
    this.n1 = 1;
    this.n2 = 2;
    this.n3 = 3;
  }

  method() { return 1; }
}

const arrow = (x) => {
  x *= 0 + 1;
  x *= 1 + 1;
  x *= 2 + 1;
  x *= 3 + 1;
  x *= 4 + 1;
  return x;
};

const expr = (x) => x + 1;
