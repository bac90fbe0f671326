/*
 * An empty ICU data library, put in the Linux bundle in place of the 31 MB libicudata.so.NN
 * that PySide6's Qt Core links (Windows and macOS wheels do not ship ICU). Built by
 * packaging/spec_support.py with `cc -shared -DICU_DATA_SYMBOL=icudtNN_dat`.
 *
 * It is the table of contents with no entries that ICU's own stubdata library holds
 * (icu4c/source/stubdata/stubdata.cpp, Unicode license). ICU code that needs no data file
 * keeps working: case mapping, normalization and character properties are compiled into
 * libicuuc. What needs data fails cleanly and Qt falls back: collation (QCollator prints
 * "Could not create collator" and compares code points, so locale-aware sorting of
 * accented text is plain), ICU-only text codecs (QStringDecoder for e.g. windows-1252 is
 * invalid; UTF-8/16/32 and Latin-1 are Qt's own), ICU time-zone display names.
 * Set SBCTUNE_FULL_ICU=1 when building to ship the real data instead.
 */
#include <stdint.h>

#ifndef ICU_DATA_SYMBOL
#error "define ICU_DATA_SYMBOL, e.g. -DICU_DATA_SYMBOL=icudt73_dat"
#endif

typedef struct {
    uint16_t size;
    uint16_t reservedWord;
    uint8_t isBigEndian;
    uint8_t charsetFamily;
    uint8_t sizeofUChar;
    uint8_t reservedByte;
    uint8_t dataFormat[4];
    uint8_t formatVersion[4];
    uint8_t dataVersion[4];
} UDataInfo;

typedef struct {
    uint16_t headerSize;
    uint8_t magic1;
    uint8_t magic2;
    UDataInfo info;
    char padding[8];
    uint32_t count;
    uint32_t reserved;
    struct {
        uint32_t nameOffset;
        uint32_t dataOffset;
    } toc[1];
} ICU_Data_Header;

__attribute__((visibility("default"))) const ICU_Data_Header ICU_DATA_SYMBOL = {
    32, 0xda, 0x27,
    {sizeof(UDataInfo), 0,
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
     1,
#else
     0,
#endif
     0 /* ASCII family */, 2 /* sizeof(UChar) */, 0,
     {0x54, 0x6f, 0x43, 0x50} /* "ToCP" */, {1, 0, 0, 0}, {0, 0, 0, 0}},
    {0},
    0,
    0,
    {{0, 0}},
};
