/* A summary fixture. */
#include <stdio.h>

static const int v0 = 0; /* filler */
static const int v1 = 1; /* filler */
static const int v2 = 2; /* filler */
static const int v3 = 3; /* filler */
static const int v4 = 4; /* filler */
static const int v5 = 5; /* filler */
static const int v6 = 6; /* filler */
static const int v7 = 7; /* filler */
static const int v8 = 8; /* filler */
static const int v9 = 9; /* filler */
static const int v10 = 10; /* filler */
static const int v11 = 11; /* filler */
static const int v12 = 12; /* filler */
static const int v13 = 13; /* filler */
static const int v14 = 14; /* filler */
static const int v15 = 15; /* filler */
static const int v16 = 16; /* filler */
static const int v17 = 17; /* filler */
static const int v18 = 18; /* filler */
static const int v19 = 19; /* filler */
static const int v20 = 20; /* filler */
static const int v21 = 21; /* filler */
static const int v22 = 22; /* filler */
static const int v23 = 23; /* filler */
static const int v24 = 24; /* filler */
static const int v25 = 25; /* filler */
static const int v26 = 26; /* filler */
static const int v27 = 27; /* filler */
static const int v28 = 28; /* filler */
static const int v29 = 29; /* filler */
static const int v30 = 30; /* filler */
static const int v31 = 31; /* filler */
static const int v32 = 32; /* filler */
static const int v33 = 33; /* filler */
static const int v34 = 34; /* filler */
static const int v35 = 35; /* filler */
static const int v36 = 36; /* filler */
static const int v37 = 37; /* filler */
static const int v38 = 38; /* filler */
static const int v39 = 39; /* filler */
static const int v40 = 40; /* filler */
static const int v41 = 41; /* filler */
static const int v42 = 42; /* filler */
static const int v43 = 43; /* filler */
static const int v44 = 44; /* filler */
static const int v45 = 45; /* filler */
static const int v46 = 46; /* filler */
static const int v47 = 47; /* filler */
static const int v48 = 48; /* filler */
static const int v49 = 49; /* filler */
static const int v50 = 50; /* filler */
static const int v51 = 51; /* filler */
static const int v52 = 52; /* filler */
static const int v53 = 53; /* filler */
static const int v54 = 54; /* filler */
static const int v55 = 55; /* filler */
static const int v56 = 56; /* filler */
static const int v57 = 57; /* filler */
static const int v58 = 58; /* filler */
static const int v59 = 59; /* filler */
static const int v60 = 60; /* filler */
static const int v61 = 61; /* filler */
static const int v62 = 62; /* filler */
static const int v63 = 63; /* filler */
static const int v64 = 64; /* filler */
static const int v65 = 65; /* filler */
static const int v66 = 66; /* filler */
static const int v67 = 67; /* filler */
static const int v68 = 68; /* filler */
static const int v69 = 69; /* filler */
static const int v70 = 70; /* filler */
static const int v71 = 71; /* filler */
static const int v72 = 72; /* filler */
static const int v73 = 73; /* filler */
static const int v74 = 74; /* filler */

int long_function(int a, int b)
{
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

int short_function(void) {
    return 1;
}

int same_line(int x) { int y = x;
    y += 0;
    y += 1;
    y += 2;
    y += 3;
    return y; }
