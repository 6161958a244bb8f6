"""A summary fixture."""
import os

V0 = 0  # filler
V1 = 1  # filler
V2 = 2  # filler
V3 = 3  # filler
V4 = 4  # filler
V5 = 5  # filler
V6 = 6  # filler
V7 = 7  # filler
V8 = 8  # filler
V9 = 9  # filler
V10 = 10  # filler
V11 = 11  # filler
V12 = 12  # filler
V13 = 13  # filler
V14 = 14  # filler
V15 = 15  # filler
V16 = 16  # filler
V17 = 17  # filler
V18 = 18  # filler
V19 = 19  # filler
V20 = 20  # filler
V21 = 21  # filler
V22 = 22  # filler
V23 = 23  # filler
V24 = 24  # filler
V25 = 25  # filler
V26 = 26  # filler
V27 = 27  # filler
V28 = 28  # filler
V29 = 29  # filler
V30 = 30  # filler
V31 = 31  # filler
V32 = 32  # filler
V33 = 33  # filler
V34 = 34  # filler
V35 = 35  # filler
V36 = 36  # filler
V37 = 37  # filler
V38 = 38  # filler
V39 = 39  # filler
V40 = 40  # filler
V41 = 41  # filler
V42 = 42  # filler
V43 = 43  # filler
V44 = 44  # filler
V45 = 45  # filler
V46 = 46  # filler
V47 = 47  # filler
V48 = 48  # filler
V49 = 49  # filler
V50 = 50  # filler
V51 = 51  # filler
V52 = 52  # filler
V53 = 53  # filler
V54 = 54  # filler
V55 = 55  # filler
V56 = 56  # filler
V57 = 57  # filler
V58 = 58  # filler
V59 = 59  # filler
V60 = 60  # filler
V61 = 61  # filler
V62 = 62  # filler
V63 = 63  # filler
V64 = 64  # filler
V65 = 65  # filler
V66 = 66  # filler
V67 = 67  # filler
V68 = 68  # filler
V69 = 69  # filler
V70 = 70  # filler
V71 = 71  # filler
V72 = 72  # filler
V73 = 73  # filler
V74 = 74  # filler


def long(a, b):
    """Docstring is kept."""
    a += b * 0
    a += b * 1
    a += b * 2
    a += b * 3
    a += b * 4
    a += b * 5
    a += b * 6
    a += b * 7
    a += b * 8
    a += b * 9
    a += b * 10
    a += b * 11
    return a


def short():
    return 1


class Thing:
    """A class: its body is not elided, its methods are."""

    size = 3

    def method(self):
        self.size += 0
        self.size += 1
        self.size += 2
        self.size += 3
        self.size += 4
        self.size += 5
        return self.size

    @property
    def tiny(self):
        return 2


def nested():
    def inner():
        x = 0
        x = 1
        x = 2
        x = 3
    return inner
