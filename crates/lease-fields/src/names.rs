//! The words for a scenario's enums (`sqs_standard`, `fencing_token`,
//! `on_next_receive`) are serde's: the scenario file, the share link, the
//! page's selects and the command line read them from the enum's own
//! `Deserialize`, so a renamed variant cannot leave one of them behind.

use serde::de::value::{Error, StrDeserializer};
use serde::de::{self, DeserializeOwned, Deserializer, IntoDeserializer, Visitor};

/// A deserializer that only records the variant names serde asks it for.
struct Variants<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for Variants<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(de::Error::custom("not an enum of words"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Error> {
        *self.0 = variants;
        Err(de::Error::custom("only the names were wanted"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// Every word of a unit-variant enum, in declaration order.
pub fn words<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut found: &'static [&'static str] = &[];
    let _ = T::deserialize(Variants(&mut found));
    found
}

/// The enum value a word names, as the scenario file reads it.
pub fn parse<T: DeserializeOwned>(word: &str) -> Option<T> {
    let d: StrDeserializer<'_, Error> = word.into_deserializer();
    T::deserialize(d).ok()
}

/// The word for an enum value, as the scenario file writes it.
pub fn name<T: DeserializeOwned + PartialEq>(value: &T) -> &'static str {
    words::<T>()
        .iter()
        .copied()
        .find(|w| parse::<T>(w).as_ref() == Some(value))
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::scenario::{CountAt, DlqTiming, Fence, Preset};

    #[test]
    fn every_preset_and_fence_has_the_name_the_scenario_file_uses() {
        assert_eq!(
            words::<Preset>(),
            [
                "textbook",
                "sqs_standard",
                "sqs_fifo",
                "azure_service_bus",
                "google_pubsub"
            ]
        );
        for p in Preset::ALL {
            assert_eq!(parse::<Preset>(name(&p)), Some(p));
        }
        for f in Fence::ALL {
            assert_eq!(parse::<Fence>(name(&f)), Some(f));
        }
        assert_eq!(name(&Fence::FencingToken), "fencing_token");
        assert_eq!(name(&DlqTiming::OnNextReceive), "on_next_receive");
        assert_eq!(words::<CountAt>(), ["receive", "expiry_or_abandon"]);
    }

    #[test]
    fn an_unknown_word_names_nothing() {
        assert_eq!(parse::<Preset>("rabbitmq"), None);
        assert_eq!(parse::<Preset>("Textbook"), None);
    }
}
