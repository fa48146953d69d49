package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/picture"
)

// media is a picture a message shows in its gallery: the file it uploads,
// whose name the gallery refers to as attachment://name, and its alt text.
type media struct {
	name, contentType string
	data              []byte
	alt               string
}

// gallery is the media gallery showing ms, and the files it refers to.
func gallery(ms []media) (discordgo.MediaGallery, []*discordgo.File) {
	var g discordgo.MediaGallery
	var files []*discordgo.File
	for _, m := range ms {
		alt := m.alt
		g.Items = append(g.Items, discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + m.name}, Description: &alt})
		files = append(files, &discordgo.File{Name: m.name, ContentType: m.contentType, Reader: bytes.NewReader(m.data)})
	}
	return g, files
}

// pictures answers the Pictures button of a replay or a review, privately
// in a new message: game g as an animated GIF, and its final position with
// each move's number on a badge of the solver's verdict. The solver judges
// the moves as a review does, within its budget: those it leaves unsolved
// get dark badges.
func (h *Handler) pictures(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game) (interaction.Reply, error) {
	r, err := h.replayMoves(ctx, i, g)
	if err != nil {
		return interaction.Reply{}, err
	}
	n := len(r.moves)
	js, err := h.judgeMoves(ctx, r, 0, n)
	if err != nil {
		return interaction.Reply{}, err
	}
	cells, verdicts := make([]int, n), make([]ai.Verdict, n)
	for k, m := range r.moves {
		cells[k], verdicts[k] = m.Cell, js[k].verdict
	}
	var anim, final bytes.Buffer
	if err := picture.Replay(&anim, r.geo, cells); err != nil {
		return interaction.Reply{}, fmt.Errorf("game %d's replay: %w", g.ID, err)
	}
	if err := picture.Final(&final, r.geo, cells, verdicts); err != nil {
		return interaction.Reply{}, fmt.Errorf("game %d's final position: %w", g.ID, err)
	}
	l := h.userLang(i)
	number := map[string]any{"Game": gameNumber(g.ID)}
	return post(message{
		content: l.T("pictures_header", h.gameTitle(l, g)) + "\n" + l.T("pictures_legend", nil),
		media: []media{
			{name: fmt.Sprintf("game-%d.gif", g.ID), contentType: "image/gif", data: anim.Bytes(), alt: l.T("pictures_alt_replay", number)},
			{name: fmt.Sprintf("game-%d.png", g.ID), contentType: "image/png", data: final.Bytes(), alt: l.T("pictures_alt_final", number)},
		},
	}, true), nil
}

// picturesButton opens game id's pictures.
func picturesButton(l *i18n.Language, id int64) discordgo.Button {
	return discordgo.Button{Label: l.T("button_pictures", nil), Style: discordgo.SecondaryButton, CustomID: CustomID{Action: actPictures, GameID: id}.String()}
}

// ratingChart is the chart of st's ratings over time, or nil when it has
// none. A shape last rated before the stores kept the history shows its
// rating now, as one point.
func ratingChart(l *i18n.Language, st *tttbot.Stats) (*media, error) {
	hs := make([]tttbot.RatingHistory, len(st.Ratings))
	for k, s := range st.Ratings {
		hs[k] = tttbot.RatingHistory{Shape: s.Shape}
		if k < len(st.History) {
			hs[k] = st.History[k]
		}
		if len(hs[k].Points) == 0 {
			hs[k].Points = []tttbot.RatingPoint{{At: s.UpdatedAt, R: s.R, RD: s.RD}}
		}
	}
	var b bytes.Buffer
	switch err := picture.Chart(&b, hs, picture.PNG); {
	case errors.Is(err, picture.ErrNoRatings):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("rating chart: %w", err)
	}
	return &media{name: "rating.png", contentType: "image/png", data: b.Bytes(), alt: l.T("stats_chart_alt", nil)}, nil
}
