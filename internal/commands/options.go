package commands

import (
	"math"
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// maxInteger bounds Discord's integer options: 2⁵³−1, the largest of the
// integers a JSON number carries exactly.
const maxInteger = 1<<53 - 1

// checkOptions refuses options that do not fit their definitions in defs:
// a null entry, an option of another type than defined, a value of another
// type than its option's, a fraction where a whole number is due, or a user
// that Discord did not resolve. Discord's client never sends such options;
// once they pass, the handlers read values by their types without checks.
func checkOptions(defs []*discordgo.ApplicationCommandOption, opts []*discordgo.ApplicationCommandInteractionDataOption, resolved *discordgo.ApplicationCommandInteractionDataResolved) error {
	malformed := refuse(tttbot.EINVALID, "error_garbled_command", nil)
	for _, o := range opts {
		if o == nil {
			return malformed
		}
		n := slices.IndexFunc(defs, func(d *discordgo.ApplicationCommandOption) bool { return d.Name == o.Name })
		if n < 0 {
			return refuse(tttbot.EINVALID, "error_unknown_option", map[string]any{"Name": strconv.Quote(o.Name)})
		}
		d := defs[n]
		if o.Type != d.Type {
			return malformed
		}
		if d.Type == discordgo.ApplicationCommandOptionSubCommand || d.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			if o.Value != nil {
				return malformed
			}
			if err := checkOptions(d.Options, o.Options, resolved); err != nil {
				return err
			}
			continue
		}
		if len(o.Options) > 0 {
			return malformed
		}
		var ok bool
		switch d.Type {
		case discordgo.ApplicationCommandOptionString:
			_, ok = o.Value.(string)
		case discordgo.ApplicationCommandOptionBoolean:
			_, ok = o.Value.(bool)
		case discordgo.ApplicationCommandOptionInteger:
			v, isNumber := o.Value.(float64) // JSON numbers
			if isNumber && (v != math.Trunc(v) || math.Abs(v) > maxInteger) {
				return refuse(tttbot.EINVALID, "error_not_whole", map[string]any{"Name": o.Name})
			}
			ok = isNumber
		case discordgo.ApplicationCommandOptionChannel:
			id, isString := o.Value.(string)
			if isString && (resolved == nil || resolved.Channels[id] == nil) {
				return refuse(tttbot.EINVALID, "error_unresolved_channel", map[string]any{"Name": o.Name})
			}
			ok = isString
		case discordgo.ApplicationCommandOptionRole:
			id, isString := o.Value.(string)
			if isString && (resolved == nil || resolved.Roles[id] == nil) {
				return refuse(tttbot.EINVALID, "error_unresolved_role", map[string]any{"Name": o.Name})
			}
			ok = isString
		case discordgo.ApplicationCommandOptionUser:
			// The challenge reads whether the user is a bot from the
			// resolved user; without it a bot would pass for a person.
			id, isString := o.Value.(string)
			if isString && (resolved == nil || resolved.Users[id] == nil || resolved.Users[id].ID != id) {
				return refuse(tttbot.EINVALID, "error_unresolved_user", map[string]any{"Name": o.Name})
			}
			ok = isString
		}
		if !ok {
			return malformed
		}
	}
	return nil
}

// options are a subcommand's options, checked against its definition
// (checkOptions): each value has its option's type, and every handler
// reads them by name through these methods.
type options []*discordgo.ApplicationCommandInteractionDataOption

// value is the value of option name, nil when it was left out.
func (opts options) value(name string) any {
	for _, o := range opts {
		if o.Name == name {
			return o.Value
		}
	}
	return nil
}

// has reports whether option name was given.
func (opts options) has(name string) bool { return opts.value(name) != nil }

// str is a string option's value (a user's, channel's or role's ID too),
// "" when left out.
func (opts options) str(name string) string {
	s, _ := opts.value(name).(string)
	return s
}

// num is an integer option's value, and whether it was given.
func (opts options) num(name string) (int, bool) {
	v, ok := opts.value(name).(float64) // JSON numbers
	return int(v), ok
}

// flag is a boolean option's value, false when left out.
func (opts options) flag(name string) bool {
	b, _ := opts.value(name).(bool)
	return b
}
