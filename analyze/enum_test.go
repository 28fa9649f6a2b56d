package analyze

import "testing"

func TestSeverityAndConfidenceNames(t *testing.T) {
	for _, s := range []Severity{Note, Warning, Error} {
		if got, ok := ParseSeverity(s.String()); !ok || got != s {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", s.String(), got, ok, s)
		}
	}
	for _, c := range []Confidence{Low, Medium, High} {
		if got, ok := ParseConfidence(c.String()); !ok || got != c {
			t.Errorf("ParseConfidence(%q) = %v, %v; want %v", c.String(), got, ok, c)
		}
	}
	if Severity(0).String() != "none" || Severity(9).String() != "none" || Confidence(0).String() != "none" {
		t.Error(`a zero or unknown value must print "none"`)
	}
	for _, s := range []string{"", "none", "Error", "fatal"} {
		if _, ok := ParseSeverity(s); ok {
			t.Errorf("ParseSeverity(%q) accepted", s)
		}
		if _, ok := ParseConfidence(s); ok {
			t.Errorf("ParseConfidence(%q) accepted", s)
		}
	}
}
