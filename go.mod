module github.com/tttbot/tttbot

go 1.26
