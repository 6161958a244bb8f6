// A summary fixture.
use std::fmt;

const V0: i32 = 0; // filler
const V1: i32 = 1; // filler
const V2: i32 = 2; // filler
const V3: i32 = 3; // filler
const V4: i32 = 4; // filler
const V5: i32 = 5; // filler
const V6: i32 = 6; // filler
const V7: i32 = 7; // filler
const V8: i32 = 8; // filler
const V9: i32 = 9; // filler
const V10: i32 = 10; // filler
const V11: i32 = 11; // filler
const V12: i32 = 12; // filler
const V13: i32 = 13; // filler
const V14: i32 = 14; // filler
const V15: i32 = 15; // filler
const V16: i32 = 16; // filler
const V17: i32 = 17; // filler
const V18: i32 = 18; // filler
const V19: i32 = 19; // filler
const V20: i32 = 20; // filler
const V21: i32 = 21; // filler
const V22: i32 = 22; // filler
const V23: i32 = 23; // filler
const V24: i32 = 24; // filler
const V25: i32 = 25; // filler
const V26: i32 = 26; // filler
const V27: i32 = 27; // filler
const V28: i32 = 28; // filler
const V29: i32 = 29; // filler
const V30: i32 = 30; // filler
const V31: i32 = 31; // filler
const V32: i32 = 32; // filler
const V33: i32 = 33; // filler
const V34: i32 = 34; // filler
const V35: i32 = 35; // filler
const V36: i32 = 36; // filler
const V37: i32 = 37; // filler
const V38: i32 = 38; // filler
const V39: i32 = 39; // filler
const V40: i32 = 40; // filler
const V41: i32 = 41; // filler
const V42: i32 = 42; // filler
const V43: i32 = 43; // filler
const V44: i32 = 44; // filler
const V45: i32 = 45; // filler
const V46: i32 = 46; // filler
const V47: i32 = 47; // filler
const V48: i32 = 48; // filler
const V49: i32 = 49; // filler
const V50: i32 = 50; // filler
const V51: i32 = 51; // filler
const V52: i32 = 52; // filler
const V53: i32 = 53; // filler
const V54: i32 = 54; // filler
const V55: i32 = 55; // filler
const V56: i32 = 56; // filler
const V57: i32 = 57; // filler
const V58: i32 = 58; // filler
const V59: i32 = 59; // filler
const V60: i32 = 60; // filler
const V61: i32 = 61; // filler
const V62: i32 = 62; // filler
const V63: i32 = 63; // filler
const V64: i32 = 64; // filler
const V65: i32 = 65; // filler
const V66: i32 = 66; // filler
const V67: i32 = 67; // filler
const V68: i32 = 68; // filler
const V69: i32 = 69; // filler
const V70: i32 = 70; // filler
const V71: i32 = 71; // filler
const V72: i32 = 72; // filler
const V73: i32 = 73; // filler
const V74: i32 = 74; // filler

pub fn long(mut a: i32, b: i32) -> i32 {
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
    a
}

fn short() -> i32 {
    1
}

struct Thing {
    n: i32,
}

impl Thing {
    fn method(&mut self) -> i32 {
        self.n += 0;
        self.n += 1;
        self.n += 2;
        self.n += 3;
        self.n += 4;
        self.n
    }
}

impl fmt::Display for Thing {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "{}", self.n) }
}
