// A summary fixture.
package sample;

import java.util.List;

public class Sample {
    static final int V0 = 0; // filler
    static final int V1 = 1; // filler
    static final int V2 = 2; // filler
    static final int V3 = 3; // filler
    static final int V4 = 4; // filler
    static final int V5 = 5; // filler
    static final int V6 = 6; // filler
    static final int V7 = 7; // filler
    static final int V8 = 8; // filler
    static final int V9 = 9; // filler
    static final int V10 = 10; // filler
    static final int V11 = 11; // filler
    static final int V12 = 12; // filler
    static final int V13 = 13; // filler
    static final int V14 = 14; // filler
    static final int V15 = 15; // filler
    static final int V16 = 16; // filler
    static final int V17 = 17; // filler
    static final int V18 = 18; // filler
    static final int V19 = 19; // filler
    static final int V20 = 20; // filler
    static final int V21 = 21; // filler
    static final int V22 = 22; // filler
    static final int V23 = 23; // filler
    static final int V24 = 24; // filler
    static final int V25 = 25; // filler
    static final int V26 = 26; // filler
    static final int V27 = 27; // filler
    static final int V28 = 28; // filler
    static final int V29 = 29; // filler
    static final int V30 = 30; // filler
    static final int V31 = 31; // filler
    static final int V32 = 32; // filler
    static final int V33 = 33; // filler
    static final int V34 = 34; // filler
    static final int V35 = 35; // filler
    static final int V36 = 36; // filler
    static final int V37 = 37; // filler
    static final int V38 = 38; // filler
    static final int V39 = 39; // filler
    static final int V40 = 40; // filler
    static final int V41 = 41; // filler
    static final int V42 = 42; // filler
    static final int V43 = 43; // filler
    static final int V44 = 44; // filler
    static final int V45 = 45; // filler
    static final int V46 = 46; // filler
    static final int V47 = 47; // filler
    static final int V48 = 48; // filler
    static final int V49 = 49; // filler
    static final int V50 = 50; // filler
    static final int V51 = 51; // filler
    static final int V52 = 52; // filler
    static final int V53 = 53; // filler
    static final int V54 = 54; // filler
    static final int V55 = 55; // filler
    static final int V56 = 56; // filler
    static final int V57 = 57; // filler
    static final int V58 = 58; // filler
    static final int V59 = 59; // filler
    static final int V60 = 60; // filler
    static final int V61 = 61; // filler
    static final int V62 = 62; // filler
    static final int V63 = 63; // filler
    static final int V64 = 64; // filler
    static final int V65 = 65; // filler
    static final int V66 = 66; // filler
    static final int V67 = 67; // filler
    static final int V68 = 68; // filler
    static final int V69 = 69; // filler
    static final int V70 = 70; // filler
    static final int V71 = 71; // filler
    static final int V72 = 72; // filler
    static final int V73 = 73; // filler
    static final int V74 = 74; // filler

    public Sample() {
        int x0 = 0;
        int x1 = 1;
        int x2 = 2;
        int x3 = 3;
    }

    public int longMethod(int a, int b) {
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

    int shortMethod() {
        return 1;
    }

    interface Shape {
        int area();
    }
}
