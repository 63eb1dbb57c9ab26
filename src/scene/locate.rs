//! Where a value sits in JSON text: the line and column of the value (or key) at a JSON path,
//! the path at a line and column, and the first duplicate key.
//!
//! serde reports line and column only for syntax errors; errors found after parsing (a negative
//! radius, a missing id) know only their JSON path. This module walks the text once with a small
//! tolerant scanner (strings with escapes, nested arrays and objects, bare scalars) and records
//! every value's path and byte span, so those errors can point at the offending value too. It
//! accepts any text: on malformed input it stops where the text stops making sense and answers
//! from what it saw; nesting deeper than [`MAX_DEPTH`] is not entered. Nothing here panics.
//!
//! Paths are written `agents[2].behaviour.path_radius`, `$` for the root; a key that is not an
//! identifier is written as a quoted JSON string in brackets: `agents[0]["odd key"]`.
//! Lines and columns are 1-based and columns count characters, not bytes.

use std::collections::HashSet;
use std::fmt::Write as _;

/// Deepest nesting the scanner enters (serde_json itself stops at 128).
pub const MAX_DEPTH: usize = 256;

/// One step of a JSON path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// A key of an object.
    Key(String),
    /// An index into an array.
    Index(usize),
}

/// A 1-based line and column (in characters) in a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextPosition {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

/// Writes segments as a path: `agents[2].behaviour.path_radius`; `$` when there are none.
pub fn format_path(segments: &[PathSegment]) -> String {
    if segments.is_empty() {
        return "$".to_string();
    }
    let mut out = String::new();
    for segment in segments {
        match segment {
            PathSegment::Index(idx) => {
                let _ = write!(out, "[{idx}]");
            }
            PathSegment::Key(key) if is_identifier(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            PathSegment::Key(key) => {
                let quoted = serde_json::to_string(key).unwrap_or_else(|_| "\"?\"".to_string());
                let _ = write!(out, "[{quoted}]");
            }
        }
    }
    out
}

/// Reads a path written by [`format_path`] (a leading `$` is optional); None if malformed.
pub fn parse_path(path: &str) -> Option<Vec<PathSegment>> {
    let mut rest = path.strip_prefix('$').unwrap_or(path);
    let mut segments = Vec::new();
    let mut first = true;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            if after.starts_with('"') {
                let end = quoted_string_end(after)?;
                let key: String = serde_json::from_str(after.get(..end)?).ok()?;
                segments.push(PathSegment::Key(key));
                rest = after.get(end..)?.strip_prefix(']')?;
            } else {
                let close = after.find(']')?;
                let digits = after.get(..close)?;
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                segments.push(PathSegment::Index(digits.parse().ok()?));
                rest = after.get(close + 1..)?;
            }
        } else {
            let after = match rest.strip_prefix('.') {
                Some(after) => after,
                None if first => rest,
                None => return None,
            };
            let len = after.find(['.', '[']).unwrap_or(after.len());
            let key = after.get(..len)?;
            if !is_identifier(key) {
                return None;
            }
            segments.push(PathSegment::Key(key.to_string()));
            rest = after.get(len..)?;
        }
        first = false;
    }
    Some(segments)
}

/// Line and column of the first character of the value at `path` (`$` is the whole document).
pub fn locate_value(text: &str, path: &str) -> Option<TextPosition> {
    let segments = parse_path(path)?;
    let entry = scan(text, Want::Path(segments)).found?;
    Some(position_of_offset(text, entry.start))
}

/// The text of the number at `path` as the file writes it (`5e-324`), None when the value there
/// is not a number.
pub fn number_at<'t>(text: &'t str, path: &str) -> Option<&'t str> {
    let segments = parse_path(path)?;
    let entry = scan(text, Want::Path(segments)).found?;
    let rest = text.get(entry.start..)?;
    let len = rest.find(|c: char| !is_number_char(c)).unwrap_or(rest.len());
    let number = rest.get(..len)?;
    number.starts_with(|c: char| c == '-' || c.is_ascii_digit()).then_some(number)
}

/// The text of the value at `path`, from its first character to its last (an object from `{`
/// to `}`); None when the path is not in the text.
pub fn value_text<'t>(text: &'t str, path: &str) -> Option<&'t str> {
    let segments = parse_path(path)?;
    let start = scan(text, Want::Path(segments)).found?.start;
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        pos: start,
        path: Vec::new(),
        want: Want::Nothing,
        found: None,
        duplicate: None,
    };
    scanner.value(None);
    text.get(start..scanner.pos)
}

/// The position of the first character of the number that serde_json's position (its last
/// character, as serde reports "number out of range") falls in; serde's position itself when
/// it is not inside a number.
pub fn number_start_of_serde(text: &str, line: usize, byte_column: usize) -> TextPosition {
    let mut offset = offset_of_line_byte_column(text, line, byte_column);
    let bytes = text.as_bytes();
    if bytes.get(offset).is_some_and(|&b| is_number_char(char::from(b))) {
        while offset > 0 && bytes.get(offset - 1).is_some_and(|&b| is_number_char(char::from(b))) {
            offset -= 1;
        }
    }
    position_of_offset(text, offset)
}

/// A character a JSON number is written with.
fn is_number_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')
}

/// Line and column of the key whose value is at `path` (the opening quote), or of the value
/// itself when the path ends in an index or is the root.
pub fn locate_key(text: &str, path: &str) -> Option<TextPosition> {
    let segments = parse_path(path)?;
    let entry = scan(text, Want::Path(segments)).found?;
    Some(position_of_offset(text, entry.key_start.unwrap_or(entry.start)))
}

/// The path of the innermost value whose text contains `position` (`$` when none does), for
/// naming where a syntax error happened.
pub fn path_at(text: &str, position: TextPosition) -> String {
    let offset = offset_of_position(text, position);
    let best = scan(text, Want::Containing(offset)).found;
    format_path(best.map(|e| e.path).as_deref().unwrap_or(&[]))
}

/// The first key that appears twice in one object: the path of its second value and the
/// position of its second key.
pub fn find_duplicate_key(text: &str) -> Option<(String, TextPosition)> {
    let (segments, key_start) = scan(text, Want::Nothing).duplicate?;
    Some((format_path(&segments), position_of_offset(text, key_start)))
}

/// The line and column of a byte offset (clamped to the text, moved back to a character
/// boundary).
pub fn position_of_offset(text: &str, offset: usize) -> TextPosition {
    let mut offset = offset.min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = text.get(..offset).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    TextPosition { line, column }
}

/// Converts serde_json's position (1-based line, column counted in bytes up to and including
/// the character it stopped at) to a character column on the same line.
pub fn position_of_serde(text: &str, line: usize, byte_column: usize) -> TextPosition {
    position_of_offset(text, offset_of_line_byte_column(text, line, byte_column))
}

fn offset_of_line_byte_column(text: &str, line: usize, byte_column: usize) -> usize {
    let line_start =
        if line <= 1 { 0 } else { text.match_indices('\n').nth(line - 2).map_or(text.len(), |(i, _)| i + 1) };
    let line_end = text.get(line_start..).and_then(|s| s.find('\n')).map_or(text.len(), |i| line_start + i);
    (line_start + byte_column.saturating_sub(1)).min(line_end)
}

fn offset_of_position(text: &str, position: TextPosition) -> usize {
    let line_start = if position.line <= 1 {
        0
    } else {
        text.match_indices('\n').nth(position.line - 2).map_or(text.len(), |(i, _)| i + 1)
    };
    let line = text.get(line_start..).unwrap_or("");
    let line = line.split('\n').next().unwrap_or("");
    let within = line.char_indices().nth(position.column.saturating_sub(1)).map_or(line.len(), |(i, _)| i);
    line_start + within
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Byte index just past the closing quote of the JSON string that `text` starts with.
fn quoted_string_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut i = 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// A value seen by the scanner.
struct Entry {
    path: Vec<PathSegment>,
    /// Byte offset of the key's opening quote when the value belongs to an object.
    key_start: Option<usize>,
    /// Byte offset of the value's first character.
    start: usize,
}

struct Scan {
    found: Option<Entry>,
    duplicate: Option<(Vec<PathSegment>, usize)>,
}

/// Which value a scan keeps: memory stays constant whatever the size of the text (a scan that
/// kept every value used about 1.7 GB to locate an error in a 50 MB scene).
enum Want {
    /// None (looking for a duplicate key only).
    Nothing,
    /// The value at this path.
    Path(Vec<PathSegment>),
    /// The innermost value whose text contains this byte offset.
    Containing(usize),
}

fn scan(text: &str, want: Want) -> Scan {
    let mut scanner =
        Scanner { bytes: text.as_bytes(), pos: 0, path: Vec::new(), want, found: None, duplicate: None };
    scanner.value(None);
    Scan { found: scanner.found, duplicate: scanner.duplicate }
}

struct Scanner<'t> {
    bytes: &'t [u8],
    pos: usize,
    path: Vec<PathSegment>,
    want: Want,
    found: Option<Entry>,
    duplicate: Option<(Vec<PathSegment>, usize)>,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Scans one value; false when the text stopped making sense inside it.
    fn value(&mut self, key_start: Option<usize>) -> bool {
        self.skip_whitespace();
        let start = self.pos;
        let ok = match self.peek() {
            None => false,
            Some(b'{' | b'[') if self.path.len() >= MAX_DEPTH => false,
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().is_some(),
            Some(_) => self.scalar(),
        };
        let end = self.pos;
        let keep = match &self.want {
            Want::Nothing => false,
            Want::Path(target) => self.found.is_none() && self.path == *target,
            // Inner values end first: a later one is kept only when it is deeper.
            Want::Containing(offset) => {
                start <= *offset
                    && *offset <= end
                    && self
                        .found
                        .as_ref()
                        .is_none_or(|best| (self.path.len(), start) > (best.path.len(), best.start))
            }
        };
        if keep {
            self.found = Some(Entry { path: self.path.clone(), key_start, start });
        }
        ok
    }

    fn object(&mut self) -> bool {
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return true;
        }
        let mut keys = HashSet::new();
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return false;
            }
            let key_start = self.pos;
            let Some(key) = self.string() else { return false };
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return false;
            }
            self.pos += 1;
            if !keys.insert(key.clone()) && self.duplicate.is_none() {
                let mut path = self.path.clone();
                path.push(PathSegment::Key(key.clone()));
                self.duplicate = Some((path, key_start));
            }
            self.path.push(PathSegment::Key(key));
            let ok = self.value(Some(key_start));
            self.path.pop();
            if !ok {
                return false;
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    fn array(&mut self) -> bool {
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return true;
        }
        let mut idx = 0;
        loop {
            self.path.push(PathSegment::Index(idx));
            let ok = self.value(None);
            self.path.pop();
            if !ok {
                return false;
            }
            idx += 1;
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// Scans a string starting at its opening quote and returns its decoded text; None when it
    /// never closes.
    fn string(&mut self) -> Option<String> {
        self.pos += 1;
        let mut raw = Vec::new();
        loop {
            let byte = self.peek()?;
            self.pos += 1;
            match byte {
                b'"' => return Some(String::from_utf8_lossy(&raw).into_owned()),
                b'\\' => {
                    let escaped = self.peek()?;
                    self.pos += 1;
                    let decoded = match escaped {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => self.unicode_escape(),
                        other => char::from(other),
                    };
                    let mut buffer = [0; 4];
                    raw.extend_from_slice(decoded.encode_utf8(&mut buffer).as_bytes());
                }
                other => raw.push(other),
            }
        }
    }

    /// Decodes the hex digits after `\u` (and a following low surrogate when this is a high
    /// one); malformed escapes decode to U+FFFD.
    fn unicode_escape(&mut self) -> char {
        let Some(high) = self.hex4() else { return char::REPLACEMENT_CHARACTER };
        if (0xD800..0xDC00).contains(&high) {
            let rest = self.bytes.get(self.pos..).unwrap_or(&[]);
            if rest.starts_with(b"\\u") {
                self.pos += 2;
                if let Some(low) = self.hex4() {
                    if (0xDC00..0xE000).contains(&low) {
                        let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                        return char::from_u32(combined).unwrap_or(char::REPLACEMENT_CHARACTER);
                    }
                }
            }
            return char::REPLACEMENT_CHARACTER;
        }
        char::from_u32(high).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.pos..self.pos + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        let value = u32::from_str_radix(text, 16).ok()?;
        self.pos += 4;
        Some(value)
    }

    /// A number, `true`, `false` or `null` (or any bare word: the scanner is tolerant).
    fn scalar(&mut self) -> bool {
        let start = self.pos;
        while let Some(byte) = self.peek() {
            if matches!(byte, b',' | b']' | b'}' | b':' | b'"' | b'[' | b'{' | b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            self.pos += 1;
        }
        self.pos > start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENE: &str = "{\n  \"version\": 1,\n  \"agents\": [\n    { \"name\": \"a\\\"b\", \"radius\": -3 },\n    { \"behaviour\": { \"type\": \"seek\", \"target\": \"flag\" } }\n  ]\n}\n";

    fn at(line: usize, column: usize) -> Option<TextPosition> {
        Some(TextPosition { line, column })
    }

    #[test]
    fn locates_values_by_path() {
        assert_eq!(locate_value(SCENE, "$"), at(1, 1));
        assert_eq!(locate_value(SCENE, "version"), at(2, 14));
        assert_eq!(locate_value(SCENE, "agents"), at(3, 13));
        assert_eq!(locate_value(SCENE, "agents[0]"), at(4, 5));
        assert_eq!(locate_value(SCENE, "agents[0].radius"), at(4, 33));
        assert_eq!(locate_value(SCENE, "agents[1].behaviour.target"), at(5, 48));
        assert_eq!(locate_value(SCENE, "$.agents[1].behaviour"), at(5, 20));
    }

    #[test]
    fn locates_keys_by_path() {
        assert_eq!(locate_key(SCENE, "agents[0].radius"), at(4, 23));
        assert_eq!(locate_key(SCENE, "agents[0]"), at(4, 5));
    }

    #[test]
    fn missing_paths_are_not_found() {
        assert_eq!(locate_value(SCENE, "agents[2]"), None);
        assert_eq!(locate_value(SCENE, "agents[0].colour"), None);
        assert_eq!(locate_value(SCENE, "version[0]"), None);
        assert_eq!(locate_value(SCENE, "agents[x]"), None);
    }

    #[test]
    fn escaped_quotes_do_not_end_strings() {
        let text = r#"{"a\"b": {"c": [1, "x\\", {"d": true}]}}"#;
        assert_eq!(locate_value(text, r#"["a\"b"].c[2].d"#), at(1, 33));
        assert_eq!(locate_value(text, r#"["a\"b"].c[1]"#), at(1, 20));
    }

    #[test]
    fn unicode_escapes_in_keys_match_decoded_paths() {
        let text = "{\"\\u00e9t\\u00e9\": 1, \"\\ud83d\\ude00\": 2}";
        assert_eq!(locate_value(text, "[\"été\"]"), at(1, 19));
        assert_eq!(locate_value(text, "[\"😀\"]"), at(1, 38));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "{\"name\": \"ééé\", \"x\": 1}";
        assert_eq!(locate_value(text, "x"), at(1, 22));
    }

    #[test]
    fn paths_round_trip_through_text() {
        let segments = vec![
            PathSegment::Key("agents".into()),
            PathSegment::Index(2),
            PathSegment::Key("odd key \"q\"".into()),
            PathSegment::Key("path_radius".into()),
        ];
        let text = format_path(&segments);
        assert_eq!(text, r#"agents[2]["odd key \"q\""].path_radius"#);
        assert_eq!(parse_path(&text), Some(segments));
        assert_eq!(format_path(&[]), "$");
        assert_eq!(parse_path("$"), Some(vec![]));
        assert_eq!(parse_path("[3][4]"), Some(vec![PathSegment::Index(3), PathSegment::Index(4)]));
    }

    #[test]
    fn malformed_paths_are_rejected() {
        for bad in ["a..b", "a[", "a[]", "a[-1]", "a b", "a[\"x]", ".", "1a", "a]"] {
            assert_eq!(parse_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn path_at_names_the_innermost_value() {
        let text = "{\"a\": [1, {\"b\": tru";
        assert_eq!(path_at(text, TextPosition { line: 1, column: 19 }), "a[1].b");
        assert_eq!(path_at(text, TextPosition { line: 1, column: 1 }), "$");
        assert_eq!(path_at("", TextPosition { line: 9, column: 9 }), "$");
    }

    #[test]
    fn first_duplicate_key_is_reported_at_its_second_occurrence() {
        let text = "{\"a\": 1,\n \"b\": {\"c\": 1, \"c\": 2}, \"a\": 3}";
        let (path, position) = find_duplicate_key(text).unwrap();
        assert_eq!(path, "b.c");
        assert_eq!(position, TextPosition { line: 2, column: 16 });
        assert_eq!(find_duplicate_key("{\"a\": {\"a\": 1}}"), None);
    }

    #[test]
    fn serde_positions_convert_to_character_columns() {
        let text = "{\n\"é\": [1e999]}";
        // serde_json reports line 2, byte column 12 (the last digit) for this number.
        assert_eq!(position_of_serde(text, 2, 12), TextPosition { line: 2, column: 11 });
        assert_eq!(position_of_serde(text, 7, 99), TextPosition { line: 2, column: 14 });
    }

    #[test]
    fn deep_nesting_stops_without_overflowing() {
        let text = "[".repeat(100_000);
        assert_eq!(locate_value(&text, "[0][0][0]"), at(1, 4));
        assert!(locate_value(&text, &"[0]".repeat(MAX_DEPTH + 1)).is_none());
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn never_panics_on_arbitrary_text_and_paths(text in "\\PC{0,200}", path in "\\PC{0,40}") {
                let _ = locate_value(&text, &path);
                let _ = locate_key(&text, &path);
                let _ = find_duplicate_key(&text);
                let _ = path_at(&text, TextPosition { line: 1, column: 3 });
            }

            #[test]
            fn never_panics_on_json_like_text(
                text in "[\\[\\]{}\":,\\\\a-c0-9 \n\tu]{0,120}",
                path in "[\\[\\]a-c0-9.\"$]{0,20}",
            ) {
                let _ = locate_value(&text, &path);
                let _ = locate_key(&text, &path);
                let _ = find_duplicate_key(&text);
                let _ = path_at(&text, TextPosition { line: 2, column: 1 });
            }

            #[test]
            fn every_index_of_a_number_array_is_found(values in proptest::collection::vec(-1000i32..1000, 1..20)) {
                let text = serde_json::to_string(&values).unwrap();
                for (idx, value) in values.iter().enumerate() {
                    let position = locate_value(&text, &format!("[{idx}]")).unwrap();
                    let start = position.column - 1;
                    prop_assert!(text[start..].starts_with(&value.to_string()));
                }
            }
        }
    }
}
