package gc

// Evacuator work sharing: releasing work to the worker's own worklist,
// stealing from the donor with the largest volume, and stalling when no
// worker has any (the scheduler, scheduler.go, does the waiting).

// addWork puts a workspace on the evacuator's worklist, splitting large
// pointer arrays when there are peers to share them with, and wakes a
// stalled peer.
func (e *evacuator) addWork(ws workspace) {
	h := e.h
	n := Ref(ws.base >> 3)
	e.listMu.Lock()
	if ws.segment || e.solo || !splittable(h, n, ws.size) {
		e.work.add(ws)
	} else {
		splitArray(h.Length(n), func(from, to int) {
			e.work.add(workspace{region: ws.region, base: ws.base, segment: true, from: from, to: to, size: uintptr(to-from) * WordSize})
		})
	}
	e.volume.Store(int64(e.work.volume))
	volume := e.work.volume
	e.listMu.Unlock()
	// -XXgc:recursiveWorkVolumeQuanta: wake a stalled peer only once this
	// worker holds more than that many quanta (default 0: any work).
	if volume > uintptr(h.cfg.WorkVolumeQuanta)*e.quantum {
		h.ctl.notify()
	}
}

// handTo puts a chain tail on the worklist of a peer that has none (a
// stalled one), and reports whether there was one. Released to this
// worker's own list, the tail could be taken back by this worker, which
// is running, before the stalled peer steals it, and the chain would stay
// one worker's; handed over, the chain goes on with the peer while this
// worker takes its own payload work.
func (e *evacuator) handTo(ws workspace) bool {
	for _, d := range e.donors {
		if d == e || d.volume.Load() != 0 || !d.listMu.TryLock() {
			continue
		}
		if d.work.volume != 0 {
			d.listMu.Unlock()
			continue
		}
		d.work.add(ws)
		d.volume.Store(int64(d.work.volume))
		d.listMu.Unlock()
		e.h.ctl.notify()
		return true
	}
	return false
}

// takeWork takes the head of the evacuator's own worklist.
func (e *evacuator) takeWork() (workspace, bool) {
	e.listMu.Lock()
	defer e.listMu.Unlock()
	ws, ok := e.work.take()
	e.volume.Store(int64(e.work.volume))
	return ws, ok
}

// takeShared is getWork while a peer is stalled, with chain detection: a
// chain (or any structure worked through the outside copyspaces) leaves
// only a few objects of work at a time, which the worker would take back
// before they reach the release threshold, so the stalled peer would find
// nothing. So the outside material is released, and of the worklist's head
// the worker takes only the first half (cut at an object boundary),
// leaving the rest for the peer to steal.
func (e *evacuator) takeShared() (workspace, bool) {
	for r := range e.outside {
		e.releaseWork(&e.outside[r])
	}
	e.listMu.Lock()
	defer e.listMu.Unlock()
	ws, ok := e.work.take()
	if ok && !ws.segment {
		if cut := e.h.halfRun(ws.base, ws.size); cut > ws.base {
			e.work.push(workspace{region: ws.region, chain: ws.chain, base: cut, size: ws.base + ws.size - cut})
			ws.size = cut - ws.base
		}
	}
	e.volume.Store(int64(e.work.volume))
	if ok {
		e.release = e.releaseThreshold()
	}
	return ws, ok
}

// halfRun returns the first object boundary at or past the middle of the
// run of copied objects [base, base+size), or base when the run is one
// object.
func (h *Heap) halfRun(base, size uintptr) uintptr {
	end := base + size
	for at := base; at < end; {
		r := Ref(at >> 3)
		at += h.sizeOf(r, h.MetaOf(r))
		if at-base >= size/2 {
			if at < end {
				return at
			}
			break
		}
	}
	return base
}

// steal takes work from the donor with the largest volume: its head
// workspace, then more while the thief would still hold less than the
// donor keeps. Donors are only try-locked; a busy or empty donor is
// skipped, for one round over the workers. It returns the bytes stolen.
func (e *evacuator) steal() (stolen uintptr, ok bool) {
	tried := make([]bool, len(e.donors))
	tried[e.id] = true
	for range e.donors {
		donor := -1
		var best int64
		for i, d := range e.donors {
			if v := d.volume.Load(); !tried[i] && v > best {
				donor, best = i, v
			}
		}
		if donor < 0 {
			return 0, false
		}
		tried[donor] = true
		d := e.donors[donor]
		if !d.listMu.TryLock() {
			continue
		}
		var taken []workspace
		var takenSize uintptr
		for {
			next, ok := d.work.peek()
			if !ok || (len(taken) > 0 && takenSize+next.size >= d.work.volume-next.size) {
				break
			}
			d.work.take()
			taken = append(taken, next)
			takenSize += next.size
		}
		d.volume.Store(int64(d.work.volume))
		d.listMu.Unlock()
		if len(taken) == 0 {
			continue
		}
		e.listMu.Lock()
		for _, ws := range taken {
			e.work.add(ws)
		}
		e.volume.Store(int64(e.work.volume))
		e.listMu.Unlock()
		e.h.ctl.notify()
		return takenSize, true
	}
	return 0, false
}

// waitForWork steals or stalls until work arrives on the evacuator's own
// worklist (true) or the scan phase ends (false).
func (e *evacuator) waitForWork() bool {
	for {
		if e.volume.Load() != 0 {
			// A peer handed work over (handTo): the stall ended with
			// work to copy, not to steal.
			if e.trace != nil {
				e.trace.afterStall = false
			}
			return true
		}
		if e.trace != nil {
			if e.tracedSteal() {
				return true
			}
		} else if _, ok := e.steal(); ok {
			return true
		}
		anyWork := func() bool {
			for _, d := range e.donors {
				if d.volume.Load() > 0 {
					return true
				}
			}
			return false
		}
		if !e.h.ctl.stall(e.worker, anyWork, anyWork) {
			return false
		}
	}
}

// tracedSteal is steal recorded on the worker's track: the attempt as a
// span with the bytes stolen, after which copying resumes if it got any.
// A stall that ended just before found work to steal, not to copy: the
// copy/scan span it opened is dropped.
func (e *evacuator) tracedSteal() bool {
	b := e.trace
	start := e.h.clock()
	if b.afterStall {
		b.open = -1
	}
	b.endWork(start)
	stolen, ok := e.steal()
	end := e.h.clock()
	b.events = append(b.events, traceEvent{name: traceSteal, ph: phSpan, ts: start, dur: end - start, argKey: "gc", arg: b.gc, arg2Key: "bytes", arg2: int64(stolen)})
	if ok {
		b.beginWork(end)
	}
	return ok
}
