package riskmodel

import (
	"net/url"
	"strings"
)

// streamSchemes are the network outputs of media tools (ffmpeg-protocols(1)): a file
// streamed to one of them leaves the machine like an upload does.
var streamSchemes = &wordSet{words: "udp rtp srtp rtmp rtmps rtmpt rtmpe srt tcp tls sftp ftp icecast rist zmq"}

// streamSink reports where ffmpeg (and avconv, its fork) sends its output when that
// output is a network URL: every URL that is not an input (-i) is an output.
func streamSink(s *Segment) (string, bool) {
	switch s.Name() {
	case "ffmpeg", "avconv":
	default:
		return "", false
	}
	for i, a := range s.Args[1:] {
		if s.Args[i] == "-i" {
			continue
		}
		if h := streamHost(a); h != "" {
			return h, true
		}
	}
	return "", false
}

// streamInputsFiles reports whether ffmpeg reads a local file (not a device or a URL),
// so a network output carries the file's data.
func streamInputsFiles(s *Segment) bool {
	for i, a := range s.Args[1:] {
		if s.Args[i] == "-i" && !strings.Contains(a, "://") && a != "-" {
			return true
		}
	}
	return false
}

func streamHost(a string) string {
	i := strings.Index(a, "://")
	if i <= 0 || !streamSchemes.get()[strings.ToLower(a[:i])] {
		return ""
	}
	u, err := url.Parse(a)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	return u.Hostname()
}
