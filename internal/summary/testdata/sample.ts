// A summary fixture.
import * as fs from "fs";

const v0: number = 0; // filler
const v1: number = 1; // filler
const v2: number = 2; // filler
const v3: number = 3; // filler
const v4: number = 4; // filler
const v5: number = 5; // filler
const v6: number = 6; // filler
const v7: number = 7; // filler
const v8: number = 8; // filler
const v9: number = 9; // filler
const v10: number = 10; // filler
const v11: number = 11; // filler
const v12: number = 12; // filler
const v13: number = 13; // filler
const v14: number = 14; // filler
const v15: number = 15; // filler
const v16: number = 16; // filler
const v17: number = 17; // filler
const v18: number = 18; // filler
const v19: number = 19; // filler
const v20: number = 20; // filler
const v21: number = 21; // filler
const v22: number = 22; // filler
const v23: number = 23; // filler
const v24: number = 24; // filler
const v25: number = 25; // filler
const v26: number = 26; // filler
const v27: number = 27; // filler
const v28: number = 28; // filler
const v29: number = 29; // filler
const v30: number = 30; // filler
const v31: number = 31; // filler
const v32: number = 32; // filler
const v33: number = 33; // filler
const v34: number = 34; // filler
const v35: number = 35; // filler
const v36: number = 36; // filler
const v37: number = 37; // filler
const v38: number = 38; // filler
const v39: number = 39; // filler
const v40: number = 40; // filler
const v41: number = 41; // filler
const v42: number = 42; // filler
const v43: number = 43; // filler
const v44: number = 44; // filler
const v45: number = 45; // filler
const v46: number = 46; // filler
const v47: number = 47; // filler
const v48: number = 48; // filler
const v49: number = 49; // filler
const v50: number = 50; // filler
const v51: number = 51; // filler
const v52: number = 52; // filler
const v53: number = 53; // filler
const v54: number = 54; // filler
const v55: number = 55; // filler
const v56: number = 56; // filler
const v57: number = 57; // filler
const v58: number = 58; // filler
const v59: number = 59; // filler
const v60: number = 60; // filler
const v61: number = 61; // filler
const v62: number = 62; // filler
const v63: number = 63; // filler
const v64: number = 64; // filler
const v65: number = 65; // filler
const v66: number = 66; // filler
const v67: number = 67; // filler
const v68: number = 68; // filler
const v69: number = 69; // filler
const v70: number = 70; // filler
const v71: number = 71; // filler
const v72: number = 72; // filler
const v73: number = 73; // filler
const v74: number = 74; // filler

export interface Shape {
  area(): number;
}

export function long(a: number, b: number): number {
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

export class Square implements Shape {
  constructor(private side: number) {}

  area(): number {
    this.side += 0;
    this.side += 1;
    this.side += 2;
    this.side += 3;
    return this.side * this.side;
  }
}

export const handler = async (x: number): Promise<number> => {
  x *= 0 + 1;
  x *= 1 + 1;
  x *= 2 + 1;
  x *= 3 + 1;
  x *= 4 + 1;
  return x;
};
