package health

import (
	"errors"
	"testing"
)

func TestFailures(t *testing.T) {
	full := errors.New("disk full")
	other := errors.New("constraint")
	for _, tt := range []struct {
		name  string
		notes []error // each noted as a storage failure unless it is other
		want  error
	}{
		{"nothing noted", nil, nil},
		{"a commit", []error{nil}, nil},
		{"a storage failure", []error{full}, full},
		{"a storage failure, then a commit", []error{full, nil}, nil},
		{"a commit, then a storage failure", []error{nil, full}, full},
		{"another failure", []error{other}, nil},
		{"a storage failure, then another", []error{full, other}, full},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var f Failures
			for _, err := range tt.notes {
				f.Note(err, err != nil && err != other)
			}
			got := f.Err()
			if tt.want == nil && got != nil || tt.want != nil && !errors.Is(got, tt.want) {
				t.Errorf("Err() = %v, want %v", got, tt.want)
			}
		})
	}
}
