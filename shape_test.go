package tttbot

import "testing"

func TestShapeString(t *testing.T) {
	tests := []struct {
		s    Shape
		want string
	}{
		{Shape{3, 3, 3}, "3×3, 3 in a row"},
		{Shape{5, 5, 4}, "5×5, 4 in a row"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestShapeValidate(t *testing.T) {
	tests := []struct {
		s    Shape
		want string // the error's code; "" for a valid shape
	}{
		{Shape{3, 3, 3}, ""},
		{Shape{4, 4, 4}, ""},
		{Shape{5, 5, 5}, ""},
		{Shape{3, 5, 4}, ""},
		{Shape{2, 2, 2}, EINVALID},
		{Shape{6, 6, 4}, EINVALID},
		{Shape{3, 3, 4}, EINVALID},
		{Shape{5, 5, 2}, EINVALID},
		{Shape{}, EINVALID},
	}
	for _, tt := range tests {
		if got := ErrorCode(tt.s.Validate()); got != tt.want {
			t.Errorf("%+v: got code %q, want %q", tt.s, got, tt.want)
		}
	}
}
