package classify

// Analyze parses text as bash and returns everything guard needs to decide on it.
// TEMPORARY STUB: being replaced by the full walker.
func Analyze(text string, opt Options) *Analysis {
	return &Analysis{Text: text, Fail: FailParse, FailReason: "classify not implemented yet"}
}

// AnalyzeArgv judges an argv (guard exec) as the simple command it is.
func AnalyzeArgv(argv []string, opt Options) *Analysis {
	return &Analysis{Fail: FailParse, FailReason: "classify not implemented yet"}
}
