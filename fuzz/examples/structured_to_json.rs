//! `structured_to_json IN_DIR OUT_DIR`: write, for every `structured` corpus
//! file, the scenario JSON it decodes to (same name, `.json`).
use arbitrary::{Arbitrary, Unstructured};
use lease_sim_fuzz::ArbScenario;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (from, to) = (&args[1], &args[2]);
    std::fs::create_dir_all(to).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let bytes = std::fs::read(&p).unwrap();
        // libfuzzer-sys decodes a typed input with `arbitrary_take_rest`.
        let Ok(s) = ArbScenario::arbitrary_take_rest(Unstructured::new(&bytes)) else {
            continue;
        };
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        std::fs::write(format!("{to}/{name}.json"), s.to_json()).unwrap();
        n += 1;
    }
    eprintln!("{n} files written to {to}");
}
