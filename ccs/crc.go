package ccs

import (
	"encoding/binary"
	"sync"
)

// crcUpdate returns the CRC-32 (IEEE) of b continued from crc (0 to
// start), as hash/crc32's Update with its IEEETable: the checksum of a
// spool record.
//
// It is not hash/crc32 because that package builds its table at init, in
// every run of the lean guard, while only a run whose output is captured
// writes a record; the tables here are built by the first record. Slicing
// by 8 keeps an 8 MiB capture to a fraction of a millisecond.
func crcUpdate(crc uint32, b []byte) uint32 {
	t := crcTables()
	crc = ^crc
	for ; len(b) >= 8; b = b[8:] {
		crc ^= binary.LittleEndian.Uint32(b)
		crc = t[0][b[7]] ^ t[1][b[6]] ^ t[2][b[5]] ^ t[3][b[4]] ^
			t[4][crc>>24] ^ t[5][crc>>16&0xff] ^ t[6][crc>>8&0xff] ^ t[7][crc&0xff]
	}
	for _, c := range b {
		crc = t[0][byte(crc)^c] ^ crc>>8
	}
	return ^crc
}

// crcTables are the slicing-by-8 tables of the IEEE polynomial (reversed).
var crcTables = sync.OnceValue(func() *[8][256]uint32 {
	const poly = 0xedb88320
	t := new([8][256]uint32)
	for i := range 256 {
		c := uint32(i)
		for range 8 {
			if c&1 == 1 {
				c = c>>1 ^ poly
			} else {
				c >>= 1
			}
		}
		t[0][i] = c
	}
	for i := range 256 {
		c := t[0][i]
		for k := 1; k < 8; k++ {
			c = t[0][c&0xff] ^ c>>8
			t[k][i] = c
		}
	}
	return t
})
