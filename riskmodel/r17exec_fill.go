package riskmodel

// diskFillBytes is the size from which a file written on purpose (fallocate, mkfile, dd
// with bs×count, head -c of an endless stream) is taken to fill the disk: 50 GiB is beyond
// any fixture, swap file or test image a development task makes, and above the free space
// of most laptops and CI runners. truncate is left out on purpose: it makes a sparse file,
// which takes no blocks.
const diskFillBytes = 50 << 30

// endlessPipeIn reports whether the data reaching s's standard input is an endless stream:
// yes, or a read of a zero or random device.
func endlessPipeIn(s *Segment) bool {
	p := s.PipeIn
	if p == nil || len(p.Args) == 0 {
		return false
	}
	if p.Name() == "yes" {
		return true
	}
	for _, a := range p.Args[1:] {
		if a == "/dev/zero" || a == "/dev/urandom" || a == "/dev/random" {
			return true
		}
	}
	return false
}
