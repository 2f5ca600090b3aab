// Package xlog is minivm's unified logging: HotSpot's -Xlog configuration
// grammar, its levels, decorators and outputs, and minivm's tag sets.
//
//	-Xlog[:[what][:[output][:[decorators][:output-options]]]]
//
// A Config is what the command line builds (Parse, Disable, VerboseGC);
// Open binds its outputs to writers and returns the Logger the runtime
// writes to. The rules follow HotSpot's logConfiguration.cpp:
//
//   - Without any -Xlog option, stdout logs every tag set at warning (minivm
//     writes nothing at warning yet, so nothing appears).
//   - Each option configures one output; naming an output again
//     reconfigures it: tag sets the new selections mention take the new
//     level, the others keep theirs, and the decorators are replaced.
//   - A selector without '*' matches exactly its tag set (in any tag
//     order); with '*' every tag set that contains its tags; 'all' every
//     tag set. In a list the last matching selector wins.
//   - An empty what, output or decorators field takes its default (all,
//     stdout, uptime,level,tags); an empty element inside one (gc+, a
//     trailing comma, file=) is an error, as are unknown tags, levels,
//     decorators and output options.
//   - A selector of known tags that matches no tag set, output options
//     given to an output that already exists, and text after the fourth
//     colon are warnings, not errors.
//
// Invariants: every tag set the runtime logs is registered in tagSets
// (Logger.Enabled panics on an unregistered one, so a test that logs at
// every level finds a missing registration); a Logger's configuration is
// fixed once the runtime writes to it, and Enabled on a nil Logger, or at a level nothing is configured
// for, is a nil check and a compare, so log sites cost nothing when
// logging is off; each line reaches each output in one Write.
package xlog

import (
	"slices"
	"strings"
)

// Level is a log level. A line at level L appears on an output whose
// level for its tag set is at least L.
type Level uint8

const (
	Off Level = iota
	Error
	Warning
	Info
	Debug
	Trace
)

var levelNames = [...]string{"off", "error", "warning", "info", "debug", "trace"}

func (l Level) String() string { return levelNames[l] }

// parseLevel reads a level name, ignoring case as HotSpot does.
func parseLevel(s string) (Level, bool) {
	for i, n := range levelNames {
		if strings.EqualFold(s, n) {
			return Level(i), true
		}
	}
	return Off, false
}

// tags are minivm's log tags; HotSpot's gc, init, tlab, age, phases, heap,
// exit and safepoint, plus minivm's stats, metadata and pretouch.
var tags = []string{"age", "exit", "gc", "heap", "init", "metadata", "phases", "pretouch", "safepoint", "stats", "tlab"}

// tagSet is one registered tag set with what it logs, for -Xlog:help.
type tagSet struct {
	label string // tags joined by commas, as the tags decorator prints them
	tags  []string
	about string
}

// tagSets are the tag sets minivm logs. A log site names one by its
// label ("gc,heap").
var tagSets = func() []tagSet {
	sets := []tagSet{
		{label: "gc", about: "info: one line per collection (Pause Young, Pause Full), GCViewer's input; the collector at start"},
		{label: "gc,init", about: "info: the heap and collector configuration at start"},
		{label: "gc,stats", about: "info: minivm's metrics per collection and a summary at exit; debug: scan, CPU, stall, TLAB and per-worker detail"},
		{label: "gc,heap", about: "info: each space before and after a collection; debug: tenure expanded or shrunk; trace: tenure's sizing after a global collection"},
		{label: "gc,heap,exit", about: "info: the heap's spaces at exit"},
		{label: "gc,age", about: "debug: the tenuring threshold of each nursery collection, futile collections; trace: the age table"},
		{label: "gc,phases", about: "info/debug: the time of each collection phase"},
		{label: "gc,tlab", about: "debug: TLAB totals per collection; trace: each thread's TLAB (as HotSpot)"},
		{label: "gc,metadata", about: "info: the class-metadata sub-allocator at exit"},
		{label: "gc,pretouch", about: "info: the pretouch mode at exit"},
		{label: "safepoint", about: "info: time to safepoint and time at safepoint per collection"},
	}
	for i := range sets {
		sets[i].tags = strings.Split(sets[i].label, ",")
	}
	return sets
}()

// numTagSets bounds the per-tag-set level arrays.
const numTagSets = 11

// tagSetIndex finds a tag set by its label.
var tagSetIndex = func() map[string]int {
	if len(tagSets) != numTagSets {
		panic("xlog: numTagSets does not match tagSets")
	}
	m := make(map[string]int, len(tagSets))
	for i, ts := range tagSets {
		m[ts.label] = i
	}
	return m
}()

func knownTag(t string) bool { return slices.Contains(tags, t) }

// selection is one element of a what list: tag1+tag2[*][=level], or all.
type selection struct {
	tags     []string
	wildcard bool // '*' or all
	level    Level
}

// selects reports whether s matches the tag set ts.
func (s *selection) selects(ts *tagSet) bool {
	if !s.wildcard && len(s.tags) != len(ts.tags) {
		return false
	}
	for _, t := range s.tags {
		if !slices.Contains(ts.tags, t) {
			return false
		}
	}
	return true
}

func (s *selection) matchesAny() bool {
	for i := range tagSets {
		if s.selects(&tagSets[i]) {
			return true
		}
	}
	return false
}

func (s *selection) describe() string {
	d := strings.Join(s.tags, "+")
	if s.wildcard {
		d += "*"
	}
	return d
}
