//! The layout of saved scene files: objects one field per line, arrays without objects inside
//! (vectors, point lists) on one line when they fit, whole numbers without `.0`.
//!
//! serde_json's own pretty printer puts every number of every vector on its own line, which
//! makes a path of twenty points two hundred lines long. This reformats serde_json's compact
//! output (which already holds the shortest text for each `f32`, so numbers read back exactly)
//! without reparsing the numbers.

/// Width within which an array is kept on one line, counting its indentation.
const LINE_WIDTH: usize = 96;

/// Reformats compact JSON as written by `serde_json::to_string`; any text is accepted and
/// nothing panics, but only well-formed JSON keeps its meaning.
pub fn pretty_json(compact: &str) -> String {
    let mut printer = Printer { text: compact, pos: 0 };
    let (mut out, _) = printer.value(0);
    out.push('\n');
    out
}

struct Printer<'t> {
    text: &'t str,
    pos: usize,
}

impl Printer<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Renders the value at the cursor; the flag says whether it holds an object.
    fn value(&mut self, indent: usize) -> (String, bool) {
        match self.peek() {
            Some(b'{') => (self.object(indent), true),
            Some(b'[') => self.array(indent),
            Some(b'"') => (self.string(), false),
            Some(_) => (self.scalar(), false),
            None => (String::new(), false),
        }
    }

    fn object(&mut self, indent: usize) -> String {
        self.pos += 1;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return "{}".to_string();
        }
        let inner = "  ".repeat(indent + 1);
        let mut out = String::from("{\n");
        loop {
            out.push_str(&inner);
            out.push_str(&self.string());
            if self.peek() == Some(b':') {
                self.pos += 1;
            }
            out.push_str(": ");
            out.push_str(&self.value(indent + 1).0);
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    out.push_str(",\n");
                }
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => break,
            }
        }
        out.push('\n');
        out.push_str(&"  ".repeat(indent));
        out.push('}');
        out
    }

    fn array(&mut self, indent: usize) -> (String, bool) {
        self.pos += 1;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return ("[]".to_string(), false);
        }
        let mut elements = Vec::new();
        let mut has_object = false;
        loop {
            let before = self.pos;
            let (element, element_has_object) = self.value(indent + 1);
            has_object |= element_has_object;
            elements.push(element);
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => break,
            }
            if self.pos == before {
                break;
            }
        }
        let inline = format!("[{}]", elements.join(", "));
        if !has_object && !inline.contains('\n') && indent * 2 + inline.len() <= LINE_WIDTH {
            return (inline, false);
        }
        let inner = "  ".repeat(indent + 1);
        let mut out = String::from("[\n");
        for (i, element) in elements.iter().enumerate() {
            if i > 0 {
                out.push_str(",\n");
            }
            out.push_str(&inner);
            out.push_str(element);
        }
        out.push('\n');
        out.push_str(&"  ".repeat(indent));
        out.push(']');
        (out, has_object)
    }

    /// Copies a string literal verbatim, escapes included.
    fn string(&mut self) -> String {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        if bytes.get(self.pos) == Some(&b'"') {
            self.pos += 1;
        }
        while let Some(&byte) = bytes.get(self.pos) {
            self.pos += 1;
            match byte {
                b'\\' => self.pos += 1,
                b'"' => break,
                _ => {}
            }
        }
        self.pos = self.pos.min(self.text.len());
        self.text.get(start..self.pos).unwrap_or("").to_string()
    }

    /// Copies a number or literal, dropping the `.0` of whole numbers.
    fn scalar(&mut self) -> String {
        let start = self.pos;
        while let Some(byte) = self.peek() {
            if matches!(byte, b',' | b']' | b'}' | b':' | b'"' | b'[' | b'{') {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            // Not a value at all: skip the byte so the caller makes progress.
            self.pos += 1;
            return String::new();
        }
        let token = self.text.get(start..self.pos).unwrap_or("");
        match token.strip_suffix(".0") {
            // "-0.0" keeps its point: "-0" would read back as +0.
            Some(whole)
                if whole != "-0"
                    && !whole.trim_start_matches('-').is_empty()
                    && whole.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()) =>
            {
                whole.to_string()
            }
            _ => token.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_and_short_point_lists_stay_on_one_line() {
        let compact = r#"{"version":1,"paths":[{"id":"p","points":[[0.0,0.0],[400.0,0.5]],"closed":false}],"agents":[]}"#;
        let expected = "{\n  \"version\": 1,\n  \"paths\": [\n    {\n      \"id\": \"p\",\n      \
                        \"points\": [[0, 0], [400, 0.5]],\n      \"closed\": false\n    }\n  ],\n  \
                        \"agents\": []\n}\n";
        assert_eq!(pretty_json(compact), expected);
    }

    #[test]
    fn long_point_lists_put_one_point_per_line() {
        let points: Vec<[f32; 2]> = (0..30).map(|i| [i as f32 * 10.5, -1.0]).collect();
        let compact = serde_json::to_string(&points).unwrap();
        let pretty = pretty_json(&compact);
        assert_eq!(pretty.lines().count(), 32);
        assert_eq!(pretty.lines().nth(1), Some("  [0, -1],"));
        assert_eq!(pretty.lines().nth(2), Some("  [10.5, -1],"));
    }

    #[test]
    fn strings_with_escapes_and_brackets_are_copied_verbatim() {
        let compact = r#"{"name":"a \"[x]\", {y}\\","n":1e20,"m":-0.0}"#;
        let pretty = pretty_json(compact);
        assert_eq!(pretty, "{\n  \"name\": \"a \\\"[x]\\\", {y}\\\\\",\n  \"n\": 1e20,\n  \"m\": -0.0\n}\n");
        let reparsed: serde_json::Value = serde_json::from_str(&pretty).unwrap();
        assert_eq!(reparsed, serde_json::from_str::<serde_json::Value>(compact).unwrap());
    }

    #[test]
    fn arbitrary_text_never_panics() {
        for text in ["", "{", "[", "[1,", "{\"a\"", "\"unterminated", "]]]", "{\"a\":}", "é[é,é]", "{,}"] {
            let _ = pretty_json(text);
        }
    }
}
