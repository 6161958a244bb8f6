// A summary fixture.
#include <vector>

constexpr int v0 = 0; // filler
constexpr int v1 = 1; // filler
constexpr int v2 = 2; // filler
constexpr int v3 = 3; // filler
constexpr int v4 = 4; // filler
constexpr int v5 = 5; // filler
constexpr int v6 = 6; // filler
constexpr int v7 = 7; // filler
constexpr int v8 = 8; // filler
constexpr int v9 = 9; // filler
constexpr int v10 = 10; // filler
constexpr int v11 = 11; // filler
constexpr int v12 = 12; // filler
constexpr int v13 = 13; // filler
constexpr int v14 = 14; // filler
constexpr int v15 = 15; // filler
constexpr int v16 = 16; // filler
constexpr int v17 = 17; // filler
constexpr int v18 = 18; // filler
constexpr int v19 = 19; // filler
constexpr int v20 = 20; // filler
constexpr int v21 = 21; // filler
constexpr int v22 = 22; // filler
constexpr int v23 = 23; // filler
constexpr int v24 = 24; // filler
constexpr int v25 = 25; // filler
constexpr int v26 = 26; // filler
constexpr int v27 = 27; // filler
constexpr int v28 = 28; // filler
constexpr int v29 = 29; // filler
constexpr int v30 = 30; // filler
constexpr int v31 = 31; // filler
constexpr int v32 = 32; // filler
constexpr int v33 = 33; // filler
constexpr int v34 = 34; // filler
constexpr int v35 = 35; // filler
constexpr int v36 = 36; // filler
constexpr int v37 = 37; // filler
constexpr int v38 = 38; // filler
constexpr int v39 = 39; // filler
constexpr int v40 = 40; // filler
constexpr int v41 = 41; // filler
constexpr int v42 = 42; // filler
constexpr int v43 = 43; // filler
constexpr int v44 = 44; // filler
constexpr int v45 = 45; // filler
constexpr int v46 = 46; // filler
constexpr int v47 = 47; // filler
constexpr int v48 = 48; // filler
constexpr int v49 = 49; // filler
constexpr int v50 = 50; // filler
constexpr int v51 = 51; // filler
constexpr int v52 = 52; // filler
constexpr int v53 = 53; // filler
constexpr int v54 = 54; // filler
constexpr int v55 = 55; // filler
constexpr int v56 = 56; // filler
constexpr int v57 = 57; // filler
constexpr int v58 = 58; // filler
constexpr int v59 = 59; // filler
constexpr int v60 = 60; // filler
constexpr int v61 = 61; // filler
constexpr int v62 = 62; // filler
constexpr int v63 = 63; // filler
constexpr int v64 = 64; // filler
constexpr int v65 = 65; // filler
constexpr int v66 = 66; // filler
constexpr int v67 = 67; // filler
constexpr int v68 = 68; // filler
constexpr int v69 = 69; // filler
constexpr int v70 = 70; // filler
constexpr int v71 = 71; // filler
constexpr int v72 = 72; // filler
constexpr int v73 = 73; // filler
constexpr int v74 = 74; // filler

namespace sample {

class Thing {
 public:
  int method(int a) {
    a += 0;
    a += 1;
    a += 2;
    a += 3;
    a += 4;
    a += 5;
    return a;
  }
  int tiny() const { return n_; }

 private:
  int n_ = 0;
};

template <typename T>
T twice(T x) {
  x = x + x * 0;
  x = x + x * 1;
  x = x + x * 2;
  x = x + x * 3;
  x = x + x * 4;
  return x;
}

}  // namespace sample
