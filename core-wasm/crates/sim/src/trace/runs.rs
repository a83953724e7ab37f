//! Page requests stored as runs (issue 37 item 2): a read or write of `n` consecutive pages
//! is one entry however large `n` is, so a trace costs memory per host request (and less:
//! consecutive records of one kind on consecutive pages, as a large request split into
//! one-page lines, share one entry), not per page. Which page requests begin a host request
//! is kept apart (`RawTrace::starts`, `timing::Schedule`), so the runs may cross them.
//!
//! Words are stored in chunks of fixed size, never one block that doubles: a store of
//! 2^24 words grows by one chunk, not by a copy into 2^25 (wasm's allocator cannot remap,
//! so doubling held both copies; issue 37 item 6).

/// Request kinds, as `Request`'s variants.
pub(crate) const K_READ: u64 = 0;
pub(crate) const K_WRITE: u64 = 1;
pub(crate) const K_FREEZE: u64 = 2;
pub(crate) const K_UNFREEZE: u64 = 3;
pub(crate) const K_REVERT: u64 = 4;
/// Tag of a run of 2 or more pages: `RUN + K_READ` or `RUN + K_WRITE` in the kind bits,
/// the first page in the value bits; the next word holds the count.
const RUN: u64 = 5;

/// Words per chunk.
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;
/// Pages between two marks (`Runs::get` walks at most this many entries).
const MARK_EVERY: usize = 256;

/// A growable array in chunks of `CHUNK` values: never copied whole when it grows.
#[derive(Clone, Debug)]
pub(crate) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new(), len: 0 }
    }
}

impl<T: Copy> Chunked<T> {
    /// Inlined, the new chunk apart: a call per record was ~35 instructions of the DiskSim
    /// parse thread's ~420 a line (issue 37 item 6, callgrind).
    #[inline(always)]
    pub fn push(&mut self, v: T) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(v),
            _ => self.push_chunk(v),
        }
        self.len += 1;
    }
    #[cold]
    #[inline(never)]
    fn push_chunk(&mut self, v: T) {
        // The first chunk grows from empty (a small trace stays small); later ones are
        // allocated whole.
        let mut c = if self.chunks.is_empty() { Vec::new() } else { Vec::with_capacity(CHUNK) };
        c.push(v);
        self.chunks.push(c);
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn get(&self, i: usize) -> T {
        self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
    fn set(&mut self, i: usize, v: T) {
        self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)] = v;
    }
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.chunks.iter().flat_map(|c| c.iter().copied())
    }
}

/// A word of a run store: u64 for parsed traces (pages of 61 bits), u32 for fitted
/// requests (29 bits: every page of the largest chip).
pub(crate) trait Word: Copy + std::fmt::Debug {
    /// The kind sits above this bit.
    const SHIFT: u32;
    fn of(v: u64) -> Self;
    fn get(self) -> u64;
}

impl Word for u64 {
    const SHIFT: u32 = 61;
    #[inline]
    fn of(v: u64) -> u64 {
        v
    }
    #[inline]
    fn get(self) -> u64 {
        self
    }
}

impl Word for u32 {
    const SHIFT: u32 = 29;
    #[inline]
    fn of(v: u64) -> u32 {
        v as u32
    }
    #[inline]
    fn get(self) -> u64 {
        self as u64
    }
}

/// The last entry, kept to extend it.
#[derive(Clone, Copy, Debug)]
struct Last {
    word: usize,
    kind: u64,
    /// Index of its first page request.
    start: usize,
    /// Its first page (value) and count.
    first: u64,
    n: u64,
}

/// One entry: `n` page requests of `kind`, values `first..first + n` (n = 1 for freeze,
/// unfreeze and revert).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub kind: u64,
    pub first: u64,
    pub n: u64,
}

/// Page requests as runs of consecutive pages.
#[derive(Clone, Debug)]
pub(crate) struct Runs<W> {
    words: Chunked<W>,
    /// Page requests.
    pages: usize,
    /// For page requests 0, MARK_EVERY, 2 MARK_EVERY, ...: the word of the entry holding
    /// it and that entry's first page request (random access in `get`).
    marks: Vec<(u32, u32)>,
    last: Option<Last>,
}

impl<W> Default for Runs<W> {
    fn default() -> Self {
        Runs { words: Chunked::default(), pages: 0, marks: Vec::new(), last: None }
    }
}

impl<W: Word> Runs<W> {
    /// Largest value (page or state id) a word holds.
    pub const MASK: u64 = (1 << W::SHIFT) - 1;

    /// Page requests.
    pub fn len(&self) -> usize {
        self.pages
    }
    pub fn is_empty(&self) -> bool {
        self.pages == 0
    }

    /// Appends `n` page requests of `kind` on pages `first..first + n` (n > 1 only for reads
    /// and writes). False, and nothing stored, when a value does not fit the word.
    #[inline(always)]
    pub fn push(&mut self, kind: u64, first: u64, n: u64) -> bool {
        if n == 0 {
            return true;
        }
        let rw = kind == K_READ || kind == K_WRITE;
        debug_assert!(rw || n == 1, "only reads and writes span pages");
        if first.checked_add(n - 1).is_none_or(|end| end > Self::MASK) {
            return false;
        }
        self.push_checked(rw, kind, first, n);
        true
    }

    /// `push` after its checks; `rw`: `kind` is a read or a write.
    #[inline(always)]
    fn push_checked(&mut self, rw: bool, kind: u64, first: u64, n: u64) {
        let at = self.pages;
        match &mut self.last {
            Some(l) if rw && l.kind == kind && l.first + l.n == first => {
                if l.n == 1 {
                    // The single word becomes a run's head, its count follows (it is the
                    // last word).
                    self.words.set(l.word, W::of((RUN + kind) << W::SHIFT | l.first));
                    self.words.push(W::of(1 + n));
                } else {
                    self.words.set(l.word + 1, W::of(l.n + n));
                }
                l.n += n;
            }
            _ => {
                let word = self.words.len();
                if n == 1 {
                    self.words.push(W::of(kind << W::SHIFT | first));
                } else {
                    self.words.push(W::of((RUN + kind) << W::SHIFT | first));
                    self.words.push(W::of(n));
                }
                self.last = Some(Last { word, kind, start: at, first, n });
            }
        }
        self.pages += n as usize;
        let l = self.last.expect("set above");
        while self.marks.len() * MARK_EVERY < self.pages {
            self.marks.push((l.word as u32, l.start as u32));
        }
    }

    /// An appender of reads and writes for a stretch of pushes (DiskSim's bulk lines).
    pub fn appender(&mut self) -> RwAppender<'_, W> {
        let l = self.last.unwrap_or(Last { word: 0, kind: u64::MAX, start: 0, first: 0, n: 0 });
        let (pages, marked) = (self.pages, self.marks.len() * MARK_EVERY);
        RwAppender {
            word: l.word,
            kind: l.kind,
            start: l.start,
            first: l.first,
            end: l.first + l.n,
            written: l.n,
            pages,
            marked,
            runs: self,
        }
    }

    /// The entry at word `w` and its width in words.
    #[inline]
    fn entry(&self, w: usize) -> (Entry, usize) {
        let word = self.words.get(w).get();
        let (tag, v) = (word >> W::SHIFT, word & Self::MASK);
        if tag >= RUN {
            (Entry { kind: tag - RUN, first: v, n: self.words.get(w + 1).get() }, 2)
        } else {
            (Entry { kind: tag, first: v, n: 1 }, 1)
        }
    }

    /// Page request `i`: `(kind, value)`.
    pub fn get(&self, i: usize) -> Option<(u64, u64)> {
        if i >= self.pages {
            return None;
        }
        let (w, s) = self.marks[i / MARK_EVERY];
        let (mut w, mut s) = (w as usize, s as usize);
        loop {
            let (e, width) = self.entry(w);
            if i < s + e.n as usize {
                return Some((e.kind, e.first + (i - s) as u64));
            }
            s += e.n as usize;
            w += width;
        }
    }

    /// The entries in order.
    pub fn entries(&self) -> Entries<'_, W> {
        Entries { runs: self, w: 0 }
    }

    /// The entries from word `w` on (an entry's first word, or the end; `Entries::word`).
    pub(crate) fn entries_from(&self, w: usize) -> Entries<'_, W> {
        Entries { runs: self, w }
    }

    /// The first word of the last entry, which a push may still extend (0 when none).
    pub(crate) fn last_word(&self) -> usize {
        self.last.map_or(0, |l| l.word)
    }

    /// `(kind, value)` of every page request from `i` on, runs expanded.
    pub fn iter_from(&self, i: usize) -> Pages<'_, W> {
        let mut it = Pages { entries: Entries { runs: self, w: 0 }, kind: 0, next: 0, left: 0 };
        if i >= self.pages {
            it.entries.w = self.words.len();
            return it;
        }
        let (w, s) = self.marks[i / MARK_EVERY];
        let (mut w, mut s) = (w as usize, s as usize);
        loop {
            let (e, width) = self.entry(w);
            w += width;
            if i < s + e.n as usize {
                let skip = (i - s) as u64;
                it.entries.w = w;
                (it.kind, it.next, it.left) = (e.kind, e.first + skip, e.n - skip);
                return it;
            }
            s += e.n as usize;
        }
    }

    pub fn iter(&self) -> Pages<'_, W> {
        self.iter_from(0)
    }
}

/// `Runs::push` of reads and writes for a stretch of pushes (DiskSim's bulk lines; issue
/// 37): the last entry and the next mark are kept in locals, and an extended entry's count
/// is written once, when the next entry begins or the stretch ends, not at every push
/// (the whole `Last` stored and the marks checked in memory cost ~50 instructions a line).
/// Dropping it leaves `runs` as the same pushes through `push` would.
pub(crate) struct RwAppender<'a, W: Word> {
    runs: &'a mut Runs<W>,
    /// The last entry (kind `u64::MAX`: none): its word, its first page request, its
    /// pages `first..end`, and its count as written in `words`.
    word: usize,
    kind: u64,
    start: usize,
    first: u64,
    end: u64,
    written: u64,
    pages: usize,
    /// `marks.len() * MARK_EVERY`: a mark is due when `pages` passes it.
    marked: usize,
}

impl<W: Word> RwAppender<'_, W> {
    /// `push` of a read or write of `n >= 1` pages whose last page fits the word (the
    /// caller checked both).
    #[inline(always)]
    pub fn push(&mut self, kind: u64, first: u64, n: u64) {
        debug_assert!(matches!(kind, K_READ | K_WRITE) && n >= 1 && first + (n - 1) <= Runs::<W>::MASK);
        if kind == self.kind && first == self.end {
            self.end += n;
        } else {
            self.write_count();
            let words = &mut self.runs.words;
            self.word = words.len();
            if n == 1 {
                words.push(W::of(kind << W::SHIFT | first));
            } else {
                words.push(W::of((RUN + kind) << W::SHIFT | first));
                words.push(W::of(n));
            }
            (self.kind, self.start, self.first, self.end, self.written) = (kind, self.pages, first, first + n, n);
        }
        self.pages += n as usize;
        if self.pages > self.marked {
            self.mark();
        }
    }

    /// The last entry's count into `words`, if it grew since written (it is the last
    /// entry: its count is, or becomes, the last word).
    #[inline(always)]
    fn write_count(&mut self) {
        let n = self.end.wrapping_sub(self.first);
        if n != self.written {
            self.grown(n);
        }
    }

    #[inline(never)]
    fn grown(&mut self, n: u64) {
        if self.written == 1 {
            self.runs.words.set(self.word, W::of((RUN + self.kind) << W::SHIFT | self.first));
            self.runs.words.push(W::of(n));
        } else {
            self.runs.words.set(self.word + 1, W::of(n));
        }
        self.written = n;
    }

    #[cold]
    #[inline(never)]
    fn mark(&mut self) {
        let marks = &mut self.runs.marks;
        while marks.len() * MARK_EVERY < self.pages {
            marks.push((self.word as u32, self.start as u32));
        }
        self.marked = marks.len() * MARK_EVERY;
    }
}

impl<W: Word> Drop for RwAppender<'_, W> {
    fn drop(&mut self) {
        self.write_count();
        if self.kind != u64::MAX {
            let n = self.end - self.first;
            self.runs.last = Some(Last { word: self.word, kind: self.kind, start: self.start, first: self.first, n });
        }
        self.runs.pages = self.pages;
    }
}

pub(crate) struct Entries<'a, W> {
    runs: &'a Runs<W>,
    w: usize,
}

impl<W> Entries<'_, W> {
    /// The word of the next entry (the end once done).
    pub(crate) fn word(&self) -> usize {
        self.w
    }
}

impl<W: Word> Iterator for Entries<'_, W> {
    type Item = Entry;
    #[inline]
    fn next(&mut self) -> Option<Entry> {
        if self.w >= self.runs.words.len() {
            return None;
        }
        let (e, width) = self.runs.entry(self.w);
        self.w += width;
        Some(e)
    }
}

/// Page requests, runs expanded: `(kind, value)`.
pub(crate) struct Pages<'a, W> {
    entries: Entries<'a, W>,
    kind: u64,
    next: u64,
    left: u64,
}

impl<W: Word> Iterator for Pages<'_, W> {
    type Item = (u64, u64);
    #[inline]
    fn next(&mut self) -> Option<(u64, u64)> {
        if self.left == 0 {
            let e = self.entries.next()?;
            (self.kind, self.next, self.left) = (e.kind, e.first, e.n);
        }
        let v = self.next;
        self.next += 1;
        self.left -= 1;
        Some((self.kind, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs read back page by page as pushed, from any index, merged only where pages and
    /// kinds continue; a value past the word is refused.
    #[test]
    fn runs_read_back_as_pushed_from_any_index() {
        let pushes: &[(u64, u64, u64)] = &[
            (K_WRITE, 10, 1),
            (K_WRITE, 11, 1),
            (K_WRITE, 12, 300),
            (K_READ, 312, 1),
            (K_WRITE, 313, 2),
            (K_FREEZE, 0, 1),
            (K_WRITE, 315, 1),
            (K_UNFREEZE, 3, 1),
            (K_READ, 7, 1),
            (K_READ, 9, 1),
            (K_REVERT, 1, 1),
            (K_READ, 0, 600),
        ];
        let mut runs = Runs::<u32>::default();
        let mut flat = Vec::new();
        for &(k, first, n) in pushes {
            assert!(runs.push(k, first, n));
            flat.extend((first..first + n).map(|v| (k, v)));
        }
        assert_eq!(runs.len(), flat.len());
        assert_eq!(runs.iter().collect::<Vec<_>>(), flat);
        for i in 0..=flat.len() {
            assert_eq!(runs.get(i), flat.get(i).copied(), "get({i})");
            assert_eq!(runs.iter_from(i).collect::<Vec<_>>(), flat[i..], "iter_from({i})");
        }
        // The three writes 10.. merged into one entry, as did nothing across kinds.
        let entries: Vec<Entry> = runs.entries().collect();
        assert_eq!(entries[0], Entry { kind: K_WRITE, first: 10, n: 302 });
        assert_eq!(entries.len(), 10);
        assert!(!runs.push(K_WRITE, Runs::<u32>::MASK, 2), "the run's last page is past 29 bits");
        assert!(runs.push(K_WRITE, Runs::<u32>::MASK, 1));
        assert_eq!(runs.len(), flat.len() + 1);
    }

    /// The appender leaves the store as `push` does (words, marks, last entry), whether it
    /// starts on an empty store or after pushes, across chunks, marks and runs it extends.
    #[test]
    fn the_appender_stores_what_push_stores() {
        let mut rng = crate::trace::rng::SplitMix64::new(8);
        for case in 0..60 {
            let (mut one, mut bulk) = (Runs::<u64>::default(), Runs::<u64>::default());
            let mut page = 0u64;
            // Consecutive pages of one kind often (runs extended) or seldom, by case.
            let mut next = |rng: &mut crate::trace::rng::SplitMix64| {
                let kind = if rng.below(4) == 0 { K_READ } else { K_WRITE };
                let n = [1, 1, 1, 2, 300][rng.below(5) as usize];
                if rng.below(8) < case % 9 {
                    page = rng.below(1 << 40);
                }
                page += n;
                (kind, page - n, n)
            };
            let stretches = 1 + rng.below(6);
            for _ in 0..stretches {
                let before = rng.below(3);
                for _ in 0..before {
                    let (k, f, n) = next(&mut rng);
                    assert!(one.push(k, f, n));
                    assert!(bulk.push(k, f, n));
                }
                let mut app = bulk.appender();
                for _ in 0..rng.below(70_000) {
                    let (k, f, n) = next(&mut rng);
                    assert!(one.push(k, f, n));
                    app.push(k, f, n);
                }
                drop(app);
                assert_eq!(format!("{bulk:?}"), format!("{one:?}"), "case {case}");
            }
        }
    }

    #[test]
    fn chunked_grows_by_chunks_and_reads_back() {
        let mut c = Chunked::default();
        for i in 0..(CHUNK * 2 + 5) as u64 {
            c.push(i);
        }
        assert_eq!(c.len(), CHUNK * 2 + 5);
        assert_eq!(c.chunks.len(), 3);
        assert!(c.iter().enumerate().all(|(i, v)| v == i as u64));
        assert_eq!(c.get(CHUNK + 1), CHUNK as u64 + 1);
    }
}
