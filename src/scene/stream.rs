//! Reading a scene straight from its text, one value at a time, with the limits applied while
//! reading: the pieces that let `io` deserialise [`super::SceneFile`] from the text instead of
//! from a whole-file [`serde_json::Value`] (which took about 44 times the file's size).
//!
//! - [`check_syntax`] reads the whole text once, keeping nothing but the root's `version`, and
//!   fails exactly where `serde_json::from_str::<Value>` would (same parser calls), so syntax
//!   errors still come before every other error.
//! - Lists are capped ([`paths`], [`agents`], ...): past the limit of `validate` the rest of the
//!   list is counted, not built, and the error is the one `validate` gives (`too many agents:
//!   N, at most 100000` at `agents`). One path's or spline's points are refused past
//!   `MAX_POINTS` ([`points`]), one field's vectors past `MAX_FIELD_CELLS`, one planner ship's
//!   waypoints past `MAX_WAYPOINTS` ([`waypoints`]), one agent's list past `MAX_BEHAVIOURS`
//!   ([`behaviours`]). Paths (splines, fields, agents' waypoints) whose points (vectors) pass
//!   the limit together are kept up to the one that passes it and the rest of the list is read
//!   without being kept, so `validate` refuses the scene where it always did (`paths[1].points`)
//!   and a read holds at most three times the limit of points (paths, splines, waypoints).
//! - [`strict`] refuses, while reading, the two forms serde accepts and the format does not have:
//!   an object written as an array of its fields, and a name written as a map
//!   (`{"secant": null}`); errors inside such a value come first, as they did when the check ran
//!   after reading.
//! - Curves (`kind`) and behaviours (`type`) are read by [`tagged`] and [`entry`]: the tag is
//!   looked for first and the rest of the object streams into the variant's struct, so errors
//!   carry their exact path and a spline's points are never held as JSON values. Fields written
//!   before the tag are held until it is read: as points for `points` / `waypoints`, as small
//!   JSON values otherwise (at most [`PENDING_VALUES`] of them per object). An error in a held
//!   field names its path in the message (`target: invalid type: ...`); `io` then reads that one
//!   object's text again with the tag known ([`reread_tagged`]) for the exact path.
//! - Fixed pairs ([`pair`], the field vectors) and names answer as the `Value` reader did, so
//!   messages stay the same (`invalid length 3, expected fewer elements in array`,
//!   `invalid type: integer `5`, expected string or map`).
//!
//! Errors of one problem are the same as before; where a file has several, the first in the text
//! is reported (the `Value` reader visited an object's keys in sorted order).

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqDeserializer, StrDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, Visitor,
};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::format::{
    describe, segments_of, tidy_message, AgentSpec, CurveSpec, EntrySpec, FieldSpec, ObstacleSpec, PathSpec,
    SceneVec, TargetSpec,
};
use super::locate::{format_path, PathSegment};
use super::validate::{
    too_many, too_many_behaviours, too_many_points, too_many_vectors, too_many_waypoints, waypoints_of,
    MAX_AGENTS, MAX_BEHAVIOURS, MAX_CURVES, MAX_FIELDS, MAX_FIELD_CELLS, MAX_OBSTACLES, MAX_PATHS,
    MAX_POINTS, MAX_TARGETS, MAX_WAYPOINTS,
};

/// Most JSON values (array items, object entries, scalars) held for the fields written before a
/// curve's `kind` or a behaviour's `type` (not counting the points of `points` and
/// `waypoints`). Every such field of the format is a few values long; past this the field is
/// refused when the variant reads it.
pub(crate) const PENDING_VALUES: usize = 100_000;

/// Most JSON values kept of the root's `version` for its error message.
pub(crate) const VERSION_VALUES: usize = 1_000;

/// The message of an object written as an array of its field values.
const OBJECT_AS_ARRAY: &str = "expected an object `{ ... }` with named fields, not an array";

/// The message of a name written as a map (`{"secant": null}`).
const NAME_AS_MAP: &str = "expected a string, not an object";

// ---------------------------------------------------------------------------------------------
// Syntax.

/// What the syntax pass keeps of the text: whether the root is an object, and its `version`.
pub(crate) struct RootSummary {
    /// Whether the text is one JSON object.
    pub(crate) is_object: bool,
    /// The root's `version`, when the root is an object that has one.
    pub(crate) version: Option<Held>,
}

/// A JSON value read while it stays small, or what kind of value it was.
#[derive(Debug, PartialEq)]
pub(crate) enum Held {
    /// The whole value.
    Value(Value),
    /// An array or object past its budget (read to its end, kept no further).
    TooLong(Container),
}

/// An array or an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Container {
    /// `[...]`.
    Array,
    /// `{...}`.
    Object,
}

/// Reads the whole text as JSON and keeps only the root's kind and `version`: the errors, their
/// lines and columns are `serde_json::from_str::<Value>`'s (the same parser calls in the same
/// order: every value through `deserialize_any`, keys as strings, then the end of the text).
pub(crate) fn check_syntax(text: &str) -> Result<RootSummary, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let summary = Deserializer::deserialize_any(&mut deserializer, RootVisitor)?;
    deserializer.end()?;
    Ok(summary)
}

struct RootVisitor;

impl<'de> Visitor<'de> for RootVisitor {
    type Value = RootSummary;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<RootSummary, E> {
        Ok(RootSummary { is_object: false, version: None })
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<RootSummary, E> {
        Ok(RootSummary { is_object: false, version: None })
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<RootSummary, E> {
        Ok(RootSummary { is_object: false, version: None })
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<RootSummary, E> {
        Ok(RootSummary { is_object: false, version: None })
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<RootSummary, E> {
        Ok(RootSummary { is_object: false, version: None })
    }

    fn visit_unit<E: de::Error>(self) -> Result<RootSummary, E> {
        Ok(RootSummary { is_object: false, version: None })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<RootSummary, A::Error> {
        Skip.visit_seq(seq)?;
        Ok(RootSummary { is_object: false, version: None })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RootSummary, A::Error> {
        let mut version = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "version" {
                let mut budget = VERSION_VALUES;
                version = Some(map.next_value_seed(HeldSeed { budget: &mut budget })?);
            } else {
                map.next_value_seed(Skip)?;
            }
        }
        Ok(RootSummary { is_object: true, version })
    }
}

/// Reads a value through `deserialize_any` to its end, keeping nothing (numbers are still
/// parsed, so one out of range is still an error).
#[derive(Clone, Copy)]
struct Skip;

impl<'de> DeserializeSeed<'de> for Skip {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skip {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Skip)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(SkipKey)?.is_some() {
            map.next_value_seed(Skip)?;
        }
        Ok(())
    }
}

/// Reads a key as a string (as `Value` does), keeping nothing.
struct SkipKey;

impl<'de> DeserializeSeed<'de> for SkipKey {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(Skip)
    }
}

/// Reads a value as a [`serde_json::Value`] while `budget` (a count of values) lasts; past it,
/// the value is read to its end and reported as [`Held::TooLong`].
struct HeldSeed<'b> {
    budget: &'b mut usize,
}

impl<'de> DeserializeSeed<'de> for HeldSeed<'_> {
    type Value = Held;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Held, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl HeldSeed<'_> {
    fn scalar<E>(self, value: Value) -> Result<Held, E> {
        *self.budget = self.budget.saturating_sub(1);
        Ok(Held::Value(value))
    }
}

impl<'de> Visitor<'de> for HeldSeed<'_> {
    type Value = Held;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Held, E> {
        self.scalar(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Held, E> {
        self.scalar(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Held, E> {
        self.scalar(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Held, E> {
        // As `Value` reads it (JSON text has no non-finite number; a `Value` might).
        self.scalar(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Held, E> {
        self.scalar(Value::String(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Held, E> {
        self.scalar(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Held, E> {
        self.scalar(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Held, A::Error> {
        // The array itself, then each item.
        *self.budget = self.budget.saturating_sub(1);
        let mut items = Vec::new();
        loop {
            if *self.budget == 0 {
                Skip.visit_seq(seq)?;
                return Ok(Held::TooLong(Container::Array));
            }
            match seq.next_element_seed(HeldSeed { budget: &mut *self.budget })? {
                None => return Ok(Held::Value(Value::Array(items))),
                Some(Held::Value(item)) => items.push(item),
                Some(Held::TooLong(_)) => {
                    Skip.visit_seq(seq)?;
                    return Ok(Held::TooLong(Container::Array));
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Held, A::Error> {
        // The object itself, then each value.
        *self.budget = self.budget.saturating_sub(1);
        let mut entries = Map::new();
        loop {
            let Some(key) = map.next_key::<String>()? else {
                return Ok(Held::Value(Value::Object(entries)));
            };
            if *self.budget == 0 {
                map.next_value_seed(Skip)?;
                Skip.visit_map(map)?;
                return Ok(Held::TooLong(Container::Object));
            }
            match map.next_value_seed(HeldSeed { budget: &mut *self.budget })? {
                Held::Value(value) => {
                    entries.insert(key, value);
                }
                Held::TooLong(_) => {
                    Skip.visit_map(map)?;
                    return Ok(Held::TooLong(Container::Object));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lists.

/// A limit on what a list's items hold together (the points of paths or of splines, the vectors
/// of painted fields).
struct Total<T> {
    /// What one item holds.
    of: fn(&T) -> usize,
    /// The most the list's items may hold together.
    limit: usize,
}

/// `paths`, at most [`MAX_PATHS`]; kept up to the path whose points pass [`MAX_POINTS`].
pub(crate) fn paths<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<PathSpec>, D::Error> {
    let total = Total { of: |path: &PathSpec| path.points.len(), limit: MAX_POINTS };
    capped(deserializer, "paths", MAX_PATHS, true, Some(total))
}

/// `curves`, at most [`MAX_CURVES`]; kept up to the spline whose points pass [`MAX_POINTS`].
pub(crate) fn curves<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<CurveSpec>, D::Error> {
    let of = |curve: &CurveSpec| match curve {
        CurveSpec::Spline(spline) => spline.points.len(),
        _ => 0,
    };
    capped(deserializer, "curves", MAX_CURVES, false, Some(Total { of, limit: MAX_POINTS }))
}

/// `fields`, at most [`MAX_FIELDS`]; kept up to the field whose vectors pass
/// [`MAX_FIELD_CELLS`].
pub(crate) fn fields<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<FieldSpec>, D::Error> {
    let total = Total { of: |field: &FieldSpec| field.vectors.len(), limit: MAX_FIELD_CELLS };
    capped(deserializer, "fields", MAX_FIELDS, true, Some(total))
}

/// `targets`, at most [`MAX_TARGETS`].
pub(crate) fn targets<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<TargetSpec>, D::Error> {
    capped(deserializer, "targets", MAX_TARGETS, true, None)
}

/// `obstacles`, at most [`MAX_OBSTACLES`].
pub(crate) fn obstacles<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<ObstacleSpec>, D::Error> {
    capped(deserializer, "obstacles", MAX_OBSTACLES, true, None)
}

/// `agents`, at most [`MAX_AGENTS`]; kept up to the agent whose planner waypoints pass
/// [`MAX_POINTS`].
pub(crate) fn agents<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<AgentSpec>, D::Error> {
    capped(deserializer, "agents", MAX_AGENTS, true, Some(Total { of: waypoints_of, limit: MAX_POINTS }))
}

/// An agent's `behaviours`: refused at the entry past [`MAX_BEHAVIOURS`].
pub(crate) fn behaviours<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<EntrySpec>, D::Error> {
    deserializer.deserialize_seq(Bounded::<EntrySpec>::new(MAX_BEHAVIOURS, too_many_behaviours))
}

/// A planner ship's `waypoints`: refused at the waypoint past [`MAX_WAYPOINTS`].
pub(crate) fn waypoints<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<SceneVec>, D::Error> {
    deserializer.deserialize_seq(Bounded::<SceneVec>::new(MAX_WAYPOINTS, too_many_waypoints))
}

/// The points of one path or spline: refused at the point past [`MAX_POINTS`] (the most all
/// paths and splines may hold together).
pub(crate) fn points<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<SceneVec>, D::Error> {
    deserializer.deserialize_seq(Bounded::<SceneVec>::new(MAX_POINTS, too_many_points))
}

/// The vectors of one painted field (`[x, y]` each): refused at the vector past
/// [`MAX_FIELD_CELLS`] (one per cell).
pub(crate) fn field_vectors<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<[f32; 2]>, D::Error> {
    deserializer
        .deserialize_seq(Bounded::<Pair<f32>>::new(MAX_FIELD_CELLS, too_many_vectors))
        .map(|pairs| pairs.into_iter().map(|Pair(pair)| pair).collect())
}

/// A list of `limit` items at most: past it, the rest is counted without being built and the
/// list is refused with [`too_many`] at the list's path. `strict`: items read with [`strict`].
/// `total`: once the items kept hold more than its limit together, the rest of the list is read
/// (for its errors) but not kept; `validate` then refuses the scene at the item that passed the
/// limit, as it always has.
fn capped<'de, D, T>(
    deserializer: D,
    list: &'static str,
    limit: usize,
    strict: bool,
    total: Option<Total<T>>,
) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_seq(CappedVisitor { list, limit, strict, total })
}

struct CappedVisitor<T> {
    list: &'static str,
    limit: usize,
    strict: bool,
    total: Option<Total<T>>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for CappedVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::new();
        let mut count = 0;
        let mut held = 0usize;
        let mut keep = true;
        while count < self.limit {
            let item = if self.strict {
                seq.next_element_seed(StrictSeed(PhantomData))?
            } else {
                seq.next_element()?
            };
            let Some(item) = item else { return Ok(items) };
            count += 1;
            if keep {
                if let Some(total) = &self.total {
                    held = held.saturating_add((total.of)(&item));
                    keep = held <= total.limit;
                }
                items.push(item);
            }
        }
        if seq.next_element::<IgnoredAny>()?.is_none() {
            return Ok(items);
        }
        drop(items);
        count += 1;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        Err(de::Error::custom(too_many(self.list, count, self.limit)))
    }
}

/// A list refused at its first item past `limit`, with `refusal`'s reason.
struct Bounded<T> {
    limit: usize,
    refusal: fn() -> String,
    marker: PhantomData<T>,
}

impl<T> Bounded<T> {
    fn new(limit: usize, refusal: fn() -> String) -> Self {
        Bounded { limit, refusal, marker: PhantomData }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Bounded<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Bounded<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            if items.len() == self.limit {
                return Err(de::Error::custom((self.refusal)()));
            }
            items.push(item);
        }
        Ok(items)
    }
}

/// Two items, `[a, b]`, refused with the messages of a `Value`-read `[T; 2]`: too few
/// (`invalid length 1, expected an array of length 2`) or too many (`invalid length 3,
/// expected fewer elements in array`, the items past two unread).
pub(crate) fn pair<'de, D, T>(deserializer: D) -> Result<[T; 2], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Pair::deserialize(deserializer).map(|Pair(pair)| pair)
}

#[derive(Debug)]
struct Pair<T>([T; 2]);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Pair<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_tuple(2, PairVisitor(PhantomData))
    }
}

struct PairVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for PairVisitor<T> {
    type Value = Pair<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of length 2")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pair<T>, A::Error> {
        let Some(first) = seq.next_element()? else {
            return Err(de::Error::invalid_length(0, &self));
        };
        let Some(second) = seq.next_element()? else {
            return Err(de::Error::invalid_length(1, &self));
        };
        let mut len = 2;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            len += 1;
        }
        if len > 2 {
            return Err(de::Error::invalid_length(len, &"fewer elements in array"));
        }
        Ok(Pair([first, second]))
    }
}

// ---------------------------------------------------------------------------------------------
// Objects and names.

/// Reads `T` refusing the forms serde accepts and the format does not have: an object written
/// as an array ([`OBJECT_AS_ARRAY`], after the array's own errors) and a name written as a map
/// ([`NAME_AS_MAP`], after the errors `Value` found in such a map). (The check this replaces
/// compared the text with the scene written back, and so let these forms pass where the scene
/// writes nothing: a default `combine` written `{"mode": {"blend": null}}` loaded; it is refused
/// now.)
pub(crate) fn strict<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(Strict(deserializer))
}

/// [`strict`] for an optional value (`null` or absent: none).
pub(crate) fn strict_option<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_option(StrictOption(PhantomData))
}

struct StrictSeed<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for StrictSeed<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        strict(deserializer)
    }
}

struct StrictOption<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for StrictOption<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<T>, D::Error> {
        strict(deserializer).map(Some)
    }
}

/// The deserializer of [`strict`]: `D` with its struct and enum readers checked.
struct Strict<D>(D);

macro_rules! forward_deserialize {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method(visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, NoArray(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(NameVisitor { variants, inner: visitor })
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// A struct's visitor that refuses the struct written as an array, once the array has been read
/// (errors in its items come first).
struct NoArray<V>(V);

macro_rules! forward_visit {
    ($($method:ident: $ty:ty),*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.0.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for NoArray<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }

    forward_visit! {
        visit_bool: bool, visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64,
        visit_i128: i128, visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64,
        visit_u128: u128, visit_f32: f32, visit_f64: f64, visit_char: char, visit_str: &str,
        visit_borrowed_str: &'de str, visit_string: String, visit_bytes: &[u8],
        visit_borrowed_bytes: &'de [u8], visit_byte_buf: Vec<u8>
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(deserializer)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(deserializer)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(map)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(data)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(seq)?;
        Err(de::Error::custom(OBJECT_AS_ARRAY))
    }
}

/// An enum of unit variants read as a name: a string is the variant; a map is checked as
/// `Value` checked it (one key, a known variant, a `null` value) and then refused with
/// [`NAME_AS_MAP`]; anything else is `invalid type: ..., expected string or map`.
struct NameVisitor<V> {
    variants: &'static [&'static str],
    inner: V,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for NameVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("string or map")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.inner.visit_enum(StrDeserializer::<E>::new(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<V::Value, A::Error> {
        let single = || de::Error::invalid_value(Unexpected::Map, &"map with a single key");
        let Some(variant) = map.next_key::<String>()? else {
            return Err(single());
        };
        let known = self.variants.contains(&variant.as_str());
        if known {
            // A unit variant's value is `null` (this error comes at `method.secant`, as before).
            map.next_value::<()>()?;
        } else {
            map.next_value::<IgnoredAny>()?;
        }
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(single());
        }
        if !known {
            return Err(de::Error::unknown_variant(&variant, self.variants));
        }
        Err(de::Error::custom(NAME_AS_MAP))
    }
}

// ---------------------------------------------------------------------------------------------
// Tagged objects.

/// A type written as an object tagged by one of its fields (curves by `kind`, behaviours by
/// `type`); `format` implements it for [`CurveSpec`] and the behaviours.
pub(crate) trait Tagged: Sized {
    /// The tag's key.
    const TAG: &'static str;
    /// What the tag names, for messages (`curve kind`).
    const WHAT: &'static str;
    /// Every name the tag may hold.
    const NAMES: &'static [&'static str];
    /// The one field of some variant that holds a list of points (read as points even when it
    /// comes before the tag).
    const POINTS: &'static str;
    /// The most of those points one object holds, and why more are refused (a spline's at
    /// [`MAX_POINTS`], a planner's waypoints at [`MAX_WAYPOINTS`]).
    const POINTS_LIMIT: (usize, fn() -> String);

    /// Reads the variant `name` (one of [`Tagged::NAMES`]) from a map without the tag.
    fn read_variant<'de, D: Deserializer<'de>>(name: &str, deserializer: D) -> Result<Self, D::Error>;
}

/// `weight` and `group` of an entry of an agent's behaviour list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Extras {
    /// Its weight when summed (default 1).
    pub(crate) weight: f32,
    /// Its priority group (default 0).
    pub(crate) group: u32,
}

impl Default for Extras {
    fn default() -> Self {
        Extras { weight: 1.0, group: 0 }
    }
}

/// Reads a tagged object (see the module documentation).
pub(crate) fn tagged<'de, D: Deserializer<'de>, T: Tagged>(deserializer: D) -> Result<T, D::Error> {
    deserializer
        .deserialize_any(TaggedVisitor::<T> { known: None, entry: false, marker: PhantomData })
        .map(|(t, _)| t)
}

/// Reads an entry of an agent's behaviour list: a behaviour object with `weight` and `group`.
pub(crate) fn entry<'de, D: Deserializer<'de>, T: Tagged>(deserializer: D) -> Result<(T, Extras), D::Error> {
    deserializer.deserialize_any(TaggedVisitor::<T> { known: None, entry: true, marker: PhantomData })
}

/// Reads a tagged object.
struct TaggedVisitor<'k, T> {
    /// The tag's name when it is known already (a second reading); the tag's field is then
    /// skipped wherever it is.
    known: Option<&'k str>,
    /// Whether this is an entry (`weight` and `group` are read beside the variant's fields).
    entry: bool,
    marker: PhantomData<T>,
}

impl<T: Tagged> TaggedVisitor<'_, T> {
    fn not_an_object<E: de::Error>(&self, value: &Value) -> E {
        E::custom(format!("expected an object with a `{}` field, got {}", T::TAG, describe(value)))
    }
}

/// The tag's names as the messages list them: `` `seek`, `flee`, ... ``.
fn listed(names: &[&str]) -> String {
    names.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ")
}

impl<'de, T: Tagged> Visitor<'de> for TaggedVisitor<'_, T> {
    type Value = (T, Extras);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with a `{}` field", T::TAG)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Err(self.not_an_object(&Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Err(self.not_an_object(&Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Err(self.not_an_object(&Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Err(self.not_an_object(&serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Err(self.not_an_object(&Value::String(v.to_string())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(self.not_an_object(&Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _seq: A) -> Result<Self::Value, A::Error> {
        Err(self.not_an_object(&Value::Array(Vec::new())))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut extras = Extras::default();
        let mut pending = Vec::new();
        let mut budget = PENDING_VALUES;
        let name = match self.known {
            Some(name) => name.to_string(),
            None => loop {
                let Some(key) = map.next_key::<String>()? else {
                    return Err(de::Error::custom(missing_tag::<T>()));
                };
                if key == T::TAG {
                    break map.next_value_seed(TagSeed::<T>(PhantomData))?;
                } else if self.entry && key == "weight" {
                    extras.weight = map.next_value()?;
                } else if self.entry && key == "group" {
                    extras.group = map.next_value()?;
                } else if key == T::POINTS {
                    let (limit, refusal) = T::POINTS_LIMIT;
                    let points = map.next_value_seed(Bounded::<SceneVec>::new(limit, refusal))?;
                    pending.push((key, Pending::Points(points)));
                } else {
                    pending
                        .push((key, Pending::Held(map.next_value_seed(HeldSeed { budget: &mut budget })?)));
                }
            },
        };
        let chain = Chain {
            pending: pending.into_iter(),
            replay: None,
            rest: map,
            tag: T::TAG,
            extras: self.entry.then_some(&mut extras),
        };
        let value = T::read_variant(&name, MapAccessDeserializer::new(chain))?;
        Ok((value, extras))
    }
}

/// Reads a tag: one of `T::NAMES`, or an error at the tag's path.
struct TagSeed<T>(PhantomData<T>);

impl<'de, T: Tagged> DeserializeSeed<'de> for TagSeed<T> {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(TagName::<T>(PhantomData))?.map_err(de::Error::custom)
    }
}

/// Reads a tag's value: the name, or why it is not one of `T::NAMES`.
struct TagName<T>(PhantomData<T>);

impl<'de, T: Tagged> DeserializeSeed<'de> for TagName<T> {
    type Value = Result<String, String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<T: Tagged> TagName<T> {
    fn not_a_name<E>(&self, value: &Value) -> Result<Result<String, String>, E> {
        Ok(Err(format!("expected a string naming the {}, got {}", T::WHAT, describe(value))))
    }
}

impl<'de, T: Tagged> Visitor<'de> for TagName<T> {
    type Value = Result<String, String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a string naming the {}", T::WHAT)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        if T::NAMES.contains(&v) {
            Ok(Ok(v.to_string()))
        } else {
            Ok(Err(format!("unknown {} `{v}`, expected one of {}", T::WHAT, listed(T::NAMES))))
        }
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        self.not_a_name(&Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        self.not_a_name(&Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        self.not_a_name(&Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.not_a_name(&serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.not_a_name(&Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Skip.visit_seq(seq)?;
        self.not_a_name(&Value::Array(Vec::new()))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Skip.visit_map(map)?;
        self.not_a_name(&Value::Object(Map::new()))
    }
}

/// A field read before the tag.
enum Pending {
    /// Points (`points`, `waypoints`).
    Points(Vec<SceneVec>),
    /// Any other field.
    Held(Held),
}

/// The map the variant's struct reads: first the fields held from before the tag, then the
/// rest of the object as it streams; the tag (and for entries `weight` and `group`) is taken
/// out on the way.
struct Chain<'x, A> {
    pending: std::vec::IntoIter<(String, Pending)>,
    /// The held field whose key was just read.
    replay: Option<(String, Pending)>,
    rest: A,
    tag: &'static str,
    extras: Option<&'x mut Extras>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Chain<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, value)) = self.pending.next() {
            let read = seed
                .deserialize(StrDeserializer::<A::Error>::new(&key))
                .map_err(|err| fold(&[PathSegment::Key(key.clone())], &err.to_string()))?;
            self.replay = Some((key, value));
            return Ok(Some(read));
        }
        let mut seed = Some(seed);
        loop {
            let peek = Peek { seed: &mut seed, tag: self.tag, entry: self.extras.is_some() };
            match self.rest.next_key_seed(peek)? {
                None => return Ok(None),
                Some(Peeked::Field(read)) => return Ok(Some(read)),
                Some(Peeked::Tag) => {
                    self.rest.next_value::<IgnoredAny>()?;
                }
                Some(Peeked::Weight) => {
                    let weight = self.rest.next_value()?;
                    if let Some(extras) = self.extras.as_deref_mut() {
                        extras.weight = weight;
                    }
                }
                Some(Peeked::Group) => {
                    let group = self.rest.next_value()?;
                    if let Some(extras) = self.extras.as_deref_mut() {
                        extras.group = group;
                    }
                }
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.replay.take() {
            Some((key, pending)) => replay(&key, pending, seed, self.tag),
            None => self.rest.next_value_seed(seed),
        }
    }
}

/// A key of the streaming part of a tagged object: the tag, `weight` or `group` of an entry,
/// or a field of the variant (read by the variant's own key seed).
struct Peek<'s, K> {
    seed: &'s mut Option<K>,
    tag: &'static str,
    entry: bool,
}

enum Peeked<T> {
    Field(T),
    Tag,
    Weight,
    Group,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for Peek<'_, K> {
    type Value = Peeked<K::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, K: DeserializeSeed<'de>> Visitor<'de> for Peek<'_, K> {
    type Value = Peeked<K::Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        if key == self.tag {
            return Ok(Peeked::Tag);
        }
        if self.entry && key == "weight" {
            return Ok(Peeked::Weight);
        }
        if self.entry && key == "group" {
            return Ok(Peeked::Group);
        }
        let seed = self.seed.take().ok_or_else(|| E::custom("a key was read twice"))?;
        seed.deserialize(StrDeserializer::<E>::new(key)).map(Peeked::Field)
    }
}

/// Gives a held field to the variant's struct; an error names the field's path in its message
/// (the path the error itself carries is the object's).
fn replay<'de, S, E>(key: &str, pending: Pending, seed: S, tag: &'static str) -> Result<S::Value, E>
where
    S: DeserializeSeed<'de>,
    E: de::Error,
{
    let mut track = serde_path_to_error::Track::new();
    let result = match pending {
        Pending::Points(points) => {
            let items = points.into_iter().map(Replay);
            seed.deserialize(serde_path_to_error::Deserializer::new(SeqDeserializer::new(items), &mut track))
                .map_err(|err: serde_json::Error| err.to_string())
        }
        Pending::Held(Held::Value(value)) => seed
            .deserialize(serde_path_to_error::Deserializer::new(value, &mut track))
            .map_err(|err| err.to_string()),
        Pending::Held(Held::TooLong(container)) => {
            let too_long = TooLong::<serde_json::Error> { container, tag, marker: PhantomData };
            seed.deserialize(serde_path_to_error::Deserializer::new(too_long, &mut track))
                .map_err(|err| err.to_string())
        }
    };
    result.map_err(|reason| {
        let mut path = vec![PathSegment::Key(key.to_string())];
        path.extend(segments_of(&track.path()));
        fold(&path, &reason)
    })
}

/// An error about a value inside a tagged object, its path relative to the object folded into
/// the message: `target: invalid type: integer `5`, expected a string`.
fn fold<E: de::Error>(path: &[PathSegment], reason: &str) -> E {
    E::custom(format!("{}: {}", format_path(path), tidy_message(reason)))
}

/// A point held from before the tag, given again as `[x, y, z]`.
struct Replay(SceneVec);

impl<'de, E: de::Error> IntoDeserializer<'de, E> for Replay {
    type Deserializer = SeqDeserializer<std::array::IntoIter<f32, 3>, E>;

    fn into_deserializer(self) -> Self::Deserializer {
        SeqDeserializer::new(self.0 .0.to_array().into_iter())
    }
}

/// A field held from before the tag that was too long to keep: a value of the right kind for
/// every type but a list or map that reads its items, which is refused.
struct TooLong<E> {
    container: Container,
    tag: &'static str,
    marker: PhantomData<E>,
}

impl<E: de::Error> TooLong<E> {
    fn refusal(&self) -> E {
        E::custom(format!(
            "too long to hold until the object's `{}` is read (more than {PENDING_VALUES} values); write `{}` first",
            self.tag, self.tag
        ))
    }
}

impl<'de, E: de::Error> Deserializer<'de> for TooLong<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.container {
            Container::Array => visitor.visit_seq(self),
            Container::Object => visitor.visit_map(self),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_some(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
    }
}

impl<'de, E: de::Error> SeqAccess<'de> for TooLong<E> {
    type Error = E;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, _seed: S) -> Result<Option<S::Value>, E> {
        Err(self.refusal())
    }
}

impl<'de, E: de::Error> MapAccess<'de> for TooLong<E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, _seed: K) -> Result<Option<K::Value>, E> {
        Err(self.refusal())
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, _seed: V) -> Result<V::Value, E> {
        Err(self.refusal())
    }
}

// ---------------------------------------------------------------------------------------------
// Reading one tagged object again.

/// Which tagged object an error is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TaggedAt {
    /// `curves[i]`.
    Curve,
    /// `agents[i].behaviour` (version 1).
    Behaviour,
    /// `agents[i].behaviours[j]`.
    Entry,
}

impl TaggedAt {
    /// The tagged object that `segments` (a path) lies in, if any, and the length of its path.
    pub(crate) fn enclosing(segments: &[PathSegment]) -> Option<(TaggedAt, usize)> {
        use PathSegment::{Index, Key};
        match segments {
            [Key(list), Index(_), ..] if list == "curves" => Some((TaggedAt::Curve, 2)),
            [Key(list), Index(_), Key(field), ..] if list == "agents" && field == "behaviour" => {
                Some((TaggedAt::Behaviour, 3))
            }
            [Key(list), Index(_), Key(field), Index(_), ..] if list == "agents" && field == "behaviours" => {
                Some((TaggedAt::Entry, 4))
            }
            _ => None,
        }
    }
}

/// Reads the text of one tagged object whose tag is not its first field again, with its tag
/// known, so an error in a field written before the tag gets its exact path, and errors come in
/// the order the `Value` reader gave them (the tag's first, then the fields' in the text's
/// order): the error's path relative to the object, and its reason. None when the tag is the
/// first field (the first reading's error is exact) or the object reads without error.
pub(crate) fn reread_tagged<C: Tagged, B: Tagged>(
    object_text: &str,
    at: TaggedAt,
) -> Option<(Vec<PathSegment>, String)> {
    if !object_text.starts_with('{') {
        return None;
    }
    match at {
        TaggedAt::Curve if !tag_first::<C>(object_text) => reread::<C>(object_text, false),
        TaggedAt::Behaviour if !tag_first::<B>(object_text) => reread::<B>(object_text, false),
        TaggedAt::Entry if !tag_first::<B>(object_text) => reread::<B>(object_text, true),
        _ => None,
    }
}

fn reread<T: Tagged>(object_text: &str, entry: bool) -> Option<(Vec<PathSegment>, String)> {
    let name = match find_tag::<T>(object_text, entry) {
        Ok(name) => name,
        Err(issue) => return issue,
    };
    let mut deserializer = serde_json::Deserializer::from_str(object_text);
    let mut track = serde_path_to_error::Track::new();
    let visitor = TaggedVisitor::<T> { known: Some(&name), entry, marker: PhantomData };
    let tracked = serde_path_to_error::Deserializer::new(&mut deserializer, &mut track);
    match tracked.deserialize_any(visitor) {
        Ok(_) => None,
        Err(err) => Some((segments_of(&track.path()), tidy_message(&without_position(&err)))),
    }
}

/// The tag of the object `object_text`; otherwise the first error the `Value` reader gave about
/// it: an entry's `weight` or `group` first, then a tag that is missing (at the object) or not
/// a name (at the tag). None when the text cannot be read so.
fn find_tag<T: Tagged>(object_text: &str, entry: bool) -> Result<String, Option<(Vec<PathSegment>, String)>> {
    struct FindTag<T> {
        entry: bool,
        marker: PhantomData<T>,
    }
    impl<'de, T: Tagged> Visitor<'de> for FindTag<T> {
        type Value = Option<Result<String, String>>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut name = None;
            while let Some(key) = map.next_key::<String>()? {
                if key == T::TAG && name.is_none() {
                    name = Some(map.next_value_seed(TagName::<T>(PhantomData))?);
                } else if self.entry && key == "weight" {
                    map.next_value::<f32>()?;
                } else if self.entry && key == "group" {
                    map.next_value::<u32>()?;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(name)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(object_text);
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(&mut deserializer, &mut track);
    match tracked.deserialize_map(FindTag::<T> { entry, marker: PhantomData }) {
        Ok(Some(Ok(name))) => Ok(name),
        Ok(Some(Err(reason))) => Err(Some((vec![PathSegment::Key(T::TAG.to_string())], reason))),
        Ok(None) => Err(Some((Vec::new(), missing_tag::<T>()))),
        Err(err) if err.is_data() => {
            Err(Some((segments_of(&track.path()), tidy_message(&without_position(&err)))))
        }
        Err(_) => Err(None),
    }
}

/// The message of a tagged object without its tag.
fn missing_tag<T: Tagged>() -> String {
    format!("missing field `{}` (one of {})", T::TAG, listed(T::NAMES))
}

/// Whether the first key of the object `object_text` is `T`'s tag: then the first reading took
/// its fields in order, as they stream, and its errors are exact.
pub(crate) fn tag_first<T: Tagged>(object_text: &str) -> bool {
    let Some(rest) = object_text.strip_prefix('{') else { return false };
    let mut deserializer = serde_json::Deserializer::from_str(rest.trim_start());
    String::deserialize(&mut deserializer).is_ok_and(|key| key == T::TAG)
}

/// serde_json's message without the ` at line L column C` it adds when reading text (the
/// loader locates errors itself, from their path).
pub(crate) fn without_position(err: &serde_json::Error) -> String {
    let message = err.to_string();
    if err.line() == 0 {
        return message;
    }
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    message.strip_suffix(&suffix).unwrap_or(&message).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::DeserializeOwned;
    use serde_json::json;
    use std::cell::Cell;

    use crate::behaviours::ParametricMethod;
    use crate::scene::format::{behaviour_from_value, curve_from_value, entry_from_value};
    use crate::scene::{BehaviourSpec, EntrySpec};

    /// Reads `text` as `T` the way the loader does: the path of an error and its reason.
    fn read<T: DeserializeOwned>(text: &str) -> Result<T, (String, String)> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
            (format_path(&segments_of(err.path())), tidy_message(&without_position(err.inner())))
        })
    }

    /// Reads `value` as `T` through a `Value`, as the loader did before it streamed.
    fn read_value<T: DeserializeOwned>(value: Value) -> Result<T, (String, String)> {
        serde_path_to_error::deserialize(value)
            .map_err(|err| (format_path(&segments_of(err.path())), tidy_message(&err.inner().to_string())))
    }

    fn err<T>(path: &str, reason: &str) -> Result<T, (String, String)> {
        Err((path.to_string(), reason.to_string()))
    }

    thread_local! {
        static BUILT: Cell<usize> = const { Cell::new(0) };
    }

    /// An item that counts how many of its kind were built.
    #[derive(Debug)]
    struct Counted;

    impl<'de> Deserialize<'de> for Counted {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            IgnoredAny::deserialize(deserializer)?;
            BUILT.with(|built| built.set(built.get() + 1));
            Ok(Counted)
        }
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Lists {
        #[serde(default, deserialize_with = "three_counted")]
        items: Vec<Counted>,
        #[serde(default, deserialize_with = "two_targets")]
        targets: Vec<TargetSpec>,
        #[serde(default, deserialize_with = "paths_of_five_points")]
        paths: Vec<PathSpec>,
        #[serde(default, deserialize_with = "three_points")]
        points: Vec<SceneVec>,
        #[serde(default, deserialize_with = "three_vectors")]
        vectors: Vec<Pair<f32>>,
    }

    fn three_counted<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Counted>, D::Error> {
        capped(deserializer, "items", 3, false, None)
    }

    fn two_targets<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<TargetSpec>, D::Error> {
        capped(deserializer, "targets", 2, true, None)
    }

    /// `paths` whose points are limited to five together.
    fn paths_of_five_points<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<PathSpec>, D::Error> {
        let total = Total { of: |path: &PathSpec| path.points.len(), limit: 5 };
        capped(deserializer, "paths", 10, true, Some(total))
    }

    fn three_points<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<SceneVec>, D::Error> {
        deserializer.deserialize_seq(Bounded::<SceneVec>::new(3, too_many_points))
    }

    fn three_vectors<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Pair<f32>>, D::Error> {
        deserializer.deserialize_seq(Bounded::<Pair<f32>>::new(3, too_many_vectors))
    }

    #[test]
    fn a_list_past_its_limit_is_refused_at_the_list_with_the_whole_count() {
        let text = r#"{"items": [1, 2, 3, 4, [5, 6], {"seven": 7}, 8]}"#;
        assert_eq!(read::<Lists>(text).map(|_| ()), err("items", "too many items: 7, at most 3"));
        let text = r#"{"items": [1, 2, 3]}"#;
        assert_eq!(read::<Lists>(text).map(|lists| lists.items.len()), Ok(3));
    }

    #[test]
    fn items_past_the_limit_are_counted_not_built() {
        BUILT.with(|built| built.set(0));
        let text = format!(r#"{{"items": [{}]}}"#, vec!["0"; 1000].join(","));
        assert!(read::<Lists>(&text).is_err());
        assert_eq!(BUILT.with(Cell::get), 3);
    }

    #[test]
    fn an_item_is_read_strictly_and_its_errors_come_before_the_count() {
        let text = r#"{"targets": [{"id": "a", "position": [0, 0]}, {"id": 5, "position": [0, 0]}, 3]}"#;
        assert_eq!(
            read::<Lists>(text).map(|_| ()),
            err("targets[1].id", "invalid type: integer `5`, expected a string")
        );
        let text = r#"{"targets": [{"id": "a", "position": [0, 0]}, ["b", [0, 0]]]}"#;
        assert_eq!(read::<Lists>(text).map(|_| ()), err("targets[1]", OBJECT_AS_ARRAY));
        let text =
            r#"{"targets": [{"id": "a", "position": [0, 0]}, {"id": "b", "position": [0, 0]}, 3, "x"]}"#;
        assert_eq!(read::<Lists>(text).map(|_| ()), err("targets", "too many targets: 4, at most 2"));
        let text = r#"{"targets": [{"id": "a", "position": [0, 0]}, {"id": "b", "position": [0, 0]}]}"#;
        assert_eq!(read::<Lists>(text).map(|lists| lists.targets.len()), Ok(2));
    }

    #[test]
    fn paths_are_kept_up_to_the_one_whose_points_pass_the_total() {
        let path =
            |id: &str, n: usize| format!(r#"{{"id": "{id}", "points": [{}]}}"#, vec!["[0, 0]"; n].join(","));
        let text = format!(
            r#"{{"paths": [{}, {}, {}, {}]}}"#,
            path("a", 3),
            path("b", 3),
            path("c", 2),
            path("d", 9)
        );
        let kept =
            read::<Lists>(&text).map(|lists| lists.paths.iter().map(|p| p.points.len()).collect::<Vec<_>>());
        assert_eq!(kept, Ok(vec![3, 3]), "the paths past the one that passes five points are not kept");
        // The rest is still read, for its errors.
        let text = format!(r#"{{"paths": [{}, {}, {{"id": 3}}]}}"#, path("a", 3), path("b", 3));
        assert_eq!(
            read::<Lists>(&text).map(|_| ()),
            err("paths[2].id", "invalid type: integer `3`, expected a string")
        );
        let text = format!(r#"{{"paths": [{}, {}]}}"#, path("a", 3), path("b", 2));
        assert_eq!(read::<Lists>(&text).map(|lists| lists.paths.len()), Ok(2));
    }

    #[test]
    fn one_list_of_points_or_vectors_is_refused_at_the_item_past_its_limit() {
        assert_eq!(
            read::<Lists>(r#"{"points": [[0, 0], [1, 1], [2, 2], [3, 3]]}"#).map(|_| ()),
            err("points", &too_many_points())
        );
        assert_eq!(
            read::<Lists>(r#"{"points": [[0, 0], [1, 1], [2, 2]]}"#).map(|lists| lists.points.len()),
            Ok(3)
        );
        assert_eq!(
            read::<Lists>(r#"{"vectors": [[0, 0], [1, 1], [2, 2], [3, 3]]}"#).map(|_| ()),
            err("vectors", &too_many_vectors())
        );
        assert_eq!(
            read::<Lists>(r#"{"vectors": [[0, 0], [1, 1], [2, 2]]}"#).map(|lists| lists.vectors.len()),
            Ok(3)
        );
    }

    #[test]
    fn pairs_give_the_messages_of_a_value_read_array() {
        #[derive(Debug, Deserialize, PartialEq)]
        struct Two(#[serde(deserialize_with = "pair")] [String; 2]);
        #[derive(Debug, Deserialize, PartialEq)]
        struct Array(#[allow(dead_code)] [String; 2]);
        for value in [
            json!(["a", "b"]),
            json!(["a"]),
            json!([]),
            json!(["a", "b", "c"]),
            json!(["a", "b", 3, {"x": 1}]),
            json!([1, "b"]),
            json!(["a", null]),
            json!("ab"),
            json!({"0": "a"}),
            json!(null),
        ] {
            let streamed = read::<Two>(&value.to_string()).map(|Two(pair)| pair);
            let as_before = read_value::<Array>(value.clone()).map(|Array(pair)| pair);
            assert_eq!(streamed, as_before, "{value}");
        }
    }

    #[test]
    fn strict_refuses_an_object_written_as_an_array_after_its_own_errors() {
        #[derive(Debug, Deserialize)]
        struct One(#[serde(deserialize_with = "strict")] TargetSpec);
        assert_eq!(read::<One>(r#"["t", [0, 0]]"#).map(|_| ()), err("$", OBJECT_AS_ARRAY));
        assert_eq!(
            read::<One>(r#"["t", [0, "x"]]"#).map(|_| ()),
            err("[1][1]", "invalid type: string \"x\", expected a number")
        );
        assert_eq!(
            read::<One>(r#""t""#).map(|_| ()),
            err("$", "invalid type: string \"t\", expected an object TargetSpec")
        );
        assert_eq!(
            read::<One>(r#"{"id": "t", "position": [0, 0]}"#).map(|One(target)| target.id),
            Ok("t".into())
        );
    }

    #[test]
    fn names_answer_as_the_value_reader_did_then_maps_are_refused() {
        #[derive(Debug, Deserialize, PartialEq)]
        struct Name(#[serde(deserialize_with = "strict")] ParametricMethod);
        #[derive(Debug, Deserialize, PartialEq)]
        struct Plain(ParametricMethod);
        for value in [
            json!("secant"),
            json!("arc_length"),
            json!("euler"),
            json!(5),
            json!(-1.5),
            json!(true),
            json!(null),
            json!(["secant"]),
            json!({}),
            json!({"secant": 5}),
            json!({"secant": [1]}),
            json!({"bogus": null}),
            json!({"bogus": 5, "x": 1}),
            json!({"secant": null, "arc_length": null}),
        ] {
            let streamed = read::<Name>(&value.to_string()).map(|Name(method)| method);
            let as_before = read_value::<Plain>(value.clone()).map(|Plain(method)| method);
            assert_eq!(streamed, as_before, "{value}");
        }
        // The one form serde reads and the format does not have.
        for value in [json!({"secant": null}), json!({"arc_length": null})] {
            assert_eq!(read::<Name>(&value.to_string()), err("$", NAME_AS_MAP));
        }
    }

    /// Reads a curve as the loader does: streamed, then read again with its tag known when the
    /// tag was not first.
    fn read_curve(text: &str) -> Result<CurveSpec, (Vec<PathSegment>, String)> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
            let first = (segments_of(err.path()), tidy_message(&without_position(err.inner())));
            reread_tagged::<CurveSpec, BehaviourSpec>(text, TaggedAt::Curve).unwrap_or(first)
        })
    }

    fn read_entry(text: &str) -> Result<EntrySpec, (Vec<PathSegment>, String)> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
            let first = (segments_of(err.path()), tidy_message(&without_position(err.inner())));
            reread_tagged::<CurveSpec, BehaviourSpec>(text, TaggedAt::Entry).unwrap_or(first)
        })
    }

    fn key(name: &str) -> PathSegment {
        PathSegment::Key(name.to_string())
    }

    #[test]
    fn a_field_before_the_tag_is_held_and_its_error_names_its_path() {
        let text = r#"{"id": 5, "kind": "circle", "radius": 1}"#;
        assert_eq!(
            read::<CurveSpec>(text).map(|_| ()),
            err("$", "id: invalid type: integer `5`, expected a string")
        );
        assert_eq!(
            read_curve(text).map(|_| ()),
            Err((vec![key("id")], "invalid type: integer `5`, expected a string".to_string()))
        );
    }

    #[test]
    fn after_the_tag_errors_stream_with_their_exact_path() {
        let text = r#"{"type": "planner", "waypoints": [[0, 0], [1, "x"]]}"#;
        assert_eq!(
            read::<BehaviourSpec>(text).map(|_| ()),
            err("waypoints[1][1]", "invalid type: string \"x\", expected a number")
        );
        let text = r#"{"type": "seek", "target": "t", "colour": 2}"#;
        assert_eq!(
            read::<BehaviourSpec>(text).map(|_| ()),
            err("colour", "unknown field `colour`, expected `target`")
        );
    }

    /// Single-problem objects, tag first and last: the streamed reading (read again where the
    /// loader would) gives what the `Value` reading gave.
    #[test]
    fn tagged_objects_read_as_the_value_reader_read_them() {
        let curves = [
            json!({"kind": "circle", "id": "c", "radius": 5}),
            json!({"kind": "circle", "id": "c"}),
            json!({"kind": "circle", "id": "c", "radius": 5, "points": [[0, 0]]}),
            json!({"kind": "spline", "id": "s", "points": [[0, 0], [1, 1, 1]], "closed": true}),
            json!({"kind": "spline", "id": "s", "points": [[0, 0], [1]]}),
            json!({"kind": "spline", "id": "s", "points": {"a": 1}}),
            json!({"kind": "spline", "id": "s", "points": [[0, 0], [1, 1]], "closed": "yes"}),
            json!({"kind": "expr", "id": "e", "x": 5, "y": "t"}),
            json!({"kind": "lissajous", "id": "l", "amplitude": [1, 2, 3, 4], "freq_x": 1, "freq_y": 2}),
            json!({"kind": "pentagram", "id": "p"}),
            json!({"kind": 7, "id": "p"}),
            json!({"kind": null, "id": "p"}),
            json!({"kind": ["circle"], "id": "p"}),
            json!({"id": "p", "radius": 1}),
            json!("circle"),
            json!([1, 2]),
            json!(2.5),
            json!(null),
        ];
        for curve in curves {
            let as_before = curve_from_value(curve.clone());
            for text in [tag_first_text(&curve, "kind"), tag_last_text(&curve, "kind")] {
                assert_eq!(read_curve(&text), as_before, "{text}");
            }
        }
        let entries = [
            json!({"type": "seek", "target": "t"}),
            json!({"type": "seek", "target": "t", "weight": 2, "group": 1}),
            json!({"type": "seek", "target": 5}),
            json!({"type": "seek", "target": "t", "weight": "heavy"}),
            json!({"type": "seek", "target": "t", "group": -1}),
            json!({"type": "seek", "target": "t", "group": 1.5}),
            json!({"type": "seek"}),
            json!({"type": "zigzag", "target": "t"}),
            json!({"type": "planner", "waypoints": [[0, 0], [1, "x"]]}),
            json!({"type": "planner", "waypoints": [[0, 0], [1, 2]], "smoothing": true}),
            json!({"type": "parametric", "curve": "c", "method": "euler"}),
            json!({"type": "parametric", "curve": "c", "method": {"secant": 5}}),
            json!({"type": "parametric", "curve": "c", "method": 3}),
            json!({"type": "interpose", "agents": ["a", "b", "c"]}),
            json!({"type": "interpose", "agents": ["a"]}),
            json!({"type": "wander", "seed": 99999999999u64}),
            json!({"target": "t"}),
        ];
        for entry in entries {
            let as_before = entry_from_value(entry.clone());
            for text in [tag_first_text(&entry, "type"), tag_last_text(&entry, "type")] {
                assert_eq!(read_entry(&text), as_before, "{text}");
            }
        }
        let behaviour = json!({"type": "seek", "target": "t", "weight": 1});
        let as_before = behaviour_from_value(behaviour.clone());
        assert!(as_before.is_err());
        assert_eq!(
            read::<BehaviourSpec>(&behaviour.to_string()).map_err(|(_, reason)| reason),
            as_before.map_err(|(_, reason)| reason)
        );
    }

    /// `value` as text with `tag` as its first key.
    fn tag_first_text(value: &Value, tag: &str) -> String {
        ordered_text(value, tag, true)
    }

    /// `value` as text with `tag` as its last key.
    fn tag_last_text(value: &Value, tag: &str) -> String {
        ordered_text(value, tag, false)
    }

    fn ordered_text(value: &Value, tag: &str, first: bool) -> String {
        let Value::Object(fields) = value else { return value.to_string() };
        let mut parts: Vec<String> = fields
            .iter()
            .filter(|(key, _)| key.as_str() != tag)
            .map(|(key, value)| format!("{}: {value}", Value::from(key.as_str())))
            .collect();
        if let Some(tag_value) = fields.get(tag) {
            let part = format!("{}: {tag_value}", Value::from(tag));
            if first {
                parts.insert(0, part);
            } else {
                parts.push(part);
            }
        }
        format!("{{{}}}", parts.join(", "))
    }

    #[test]
    fn entries_read_weight_and_group_wherever_they_are() {
        let entry = read::<EntrySpec>(r#"{"weight": 2, "type": "seek", "group": 3, "target": "t"}"#);
        let expected = EntrySpec {
            behaviour: BehaviourSpec::Seek(crate::scene::KinematicSpec { target: "t".into() }),
            weight: 2.0,
            group: 3,
        };
        assert_eq!(entry.map_err(|(_, reason)| reason), Ok(expected));
    }

    #[test]
    fn a_long_field_before_the_tag_is_not_held() {
        let long = vec!["0"; PENDING_VALUES + 10].join(",");
        // A type that is not a list is refused as before, from the kind of value alone.
        let text = format!(r#"{{"target": [{long}], "type": "seek"}}"#);
        assert_eq!(
            read::<BehaviourSpec>(&text).map(|_| ()),
            err("$", "target: invalid type: sequence, expected a string")
        );
        // An unknown field, as before.
        let text = format!(r#"{{"junk": {{"a": [{long}]}}, "type": "seek", "target": "t"}}"#);
        assert_eq!(
            read::<BehaviourSpec>(&text).map(|_| ()),
            err("$", "junk: unknown field `junk`, expected `target`")
        );
        // A list the field would read is refused for its length.
        let text = format!(r#"{{"center": [{long}], "kind": "circle", "id": "c", "radius": 1}}"#);
        let (path, reason) = read::<CurveSpec>(&text).map(|_| ()).unwrap_err();
        assert_eq!(path, "$");
        assert!(reason.starts_with("center: too long to hold until the object's `kind` is read"), "{reason}");
    }

    #[test]
    fn non_objects_and_bad_tags_are_described() {
        assert_eq!(
            read::<CurveSpec>(r#""circle""#).map(|_| ()),
            err("$", "expected an object with a `kind` field, got the string \"circle\"")
        );
        assert_eq!(
            read::<BehaviourSpec>(r#"{"type": 1.5e3}"#).map(|_| ()),
            err("type", "expected a string naming the behaviour type, got the number 1500.0")
        );
        assert_eq!(
            read::<BehaviourSpec>(r#"{"target": "t"}"#).map(|_| ()),
            err("$", &missing_tag::<BehaviourSpec>())
        );
    }

    /// The syntax pass gives the errors (message, line, column) and the version that reading
    /// the whole text as a `Value` gives.
    fn same_as_value(text: &str) {
        let as_value =
            serde_json::from_str::<Value>(text).map_err(|err| (err.to_string(), err.line(), err.column()));
        let checked = check_syntax(text).map_err(|err| (err.to_string(), err.line(), err.column()));
        match (as_value, checked) {
            (Ok(value), Ok(summary)) => {
                assert_eq!(summary.is_object, value.is_object(), "{text}");
                let version = value.get("version").cloned().map(Held::Value);
                assert_eq!(summary.version, version, "{text}");
            }
            (Err(expected), Err(actual)) => assert_eq!(actual, expected, "{text}"),
            (expected, actual) => {
                panic!("{text}: {:?} against {:?}", expected.map(|_| ()), actual.map(|_| ()))
            }
        }
    }

    #[test]
    fn the_syntax_pass_fails_where_a_value_reading_fails() {
        for text in [
            "",
            "   ",
            "{",
            "{\"version\": 2,}",
            "[1, 2,]",
            "{\"a\": 1e999}",
            "{\"version\": [1e999]}",
            "{\"a\": \"\\q\"}",
            "{\"a\": \"\\ud800\"}",
            "{\"a\": \"\u{1}\"}",
            "{1: 2}",
            "{\"version\": 2} x",
            "{\"version\": 2, \"version\": [3, {\"a\": null}]}",
            "nul",
            "-",
            "01",
            "[1.]",
            "\"abc",
            "{\"a\" 1}",
            "{\"version\": 2.0}",
            "{\"version\": -0}",
            "[]",
            "7",
        ] {
            same_as_value(text);
        }
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(200), "]".repeat(200));
        same_as_value(&deep);
        let deep_fits = format!("{{\"a\": {}{}}}", "[".repeat(126), "]".repeat(126));
        same_as_value(&deep_fits);
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]
            #[test]
            fn the_syntax_pass_agrees_with_a_value_reading_on_json_like_text(
                text in r#"[\[\]{}",: 0-9.eE+\-a-z\\]{0,40}"#
            ) {
                same_as_value(&text);
            }

            #[test]
            fn the_syntax_pass_agrees_on_damaged_scenes(cut in 0usize..400, byte in 0u8..128, at in 0usize..400) {
                let scene = include_str!("../../scenes/arrive.json");
                let mut bytes = scene.as_bytes().to_vec();
                let at = at.min(bytes.len().saturating_sub(1));
                bytes[at] = byte;
                bytes.truncate(bytes.len().saturating_sub(cut));
                if let Ok(text) = String::from_utf8(bytes) {
                    same_as_value(&text);
                }
            }
        }
    }
}
