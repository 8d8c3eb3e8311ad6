package guardian

// FindProjectFile returns the project file (ProjectConfigFile) that governs dir — the one
// WithProject would merge — or "" when there is none. It walks up from dir to the repository
// root (the first directory holding .git) or "/". A long-running reviewer (guardian serve)
// uses it to key its per-project pipelines on the file and its modification time, so it
// merges and compiles a project's policy once instead of on every request.
//
// An unreadable candidate or a project file that is not a regular file is an error: the file
// may hold restrictions, so the caller must fail closed rather than treat it as absent.
func FindProjectFile(dir string) (string, error) { return findProjectFile(dir) }
