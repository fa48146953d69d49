package deploy_test

import (
	"testing"

	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }
