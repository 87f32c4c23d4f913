package ccs

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestCRCUpdate checks the spool's CRC against hash/crc32 on every length
// up to a few blocks, at every alignment, and continued across pieces.
func TestCRCUpdate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 300)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for off := range 9 {
		for n := 0; off+n <= len(buf); n++ {
			b := buf[off : off+n]
			if got, want := crcUpdate(0, b), crc32.ChecksumIEEE(b); got != want {
				t.Fatalf("crcUpdate(0, buf[%d:%d]) = %08x, want %08x", off, off+n, got, want)
			}
			cut := n / 3
			if got, want := crcUpdate(crcUpdate(0, b[:cut]), b[cut:]), crc32.ChecksumIEEE(b); got != want {
				t.Fatalf("crcUpdate continued at %d of buf[%d:%d] = %08x, want %08x", cut, off, off+n, got, want)
			}
		}
	}
	if got := crcUpdate(0, []byte("123456789")); got != 0xcbf43926 {
		t.Fatalf("check value: %08x, want cbf43926", got)
	}
}

// FuzzCRCUpdate compares the spool's CRC with hash/crc32's.
func FuzzCRCUpdate(f *testing.F) {
	f.Add([]byte("GRUN"), uint32(0))
	f.Add([]byte("123456789abcdefgh"), uint32(0xdeadbeef))
	f.Fuzz(func(t *testing.T, b []byte, crc uint32) {
		if got, want := crcUpdate(crc, b), crc32.Update(crc, crc32.IEEETable, b); got != want {
			t.Fatalf("crcUpdate(%08x, %q) = %08x, want %08x", crc, b, got, want)
		}
	})
}
