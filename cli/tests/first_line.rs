//! Line 1 of a label or score file that counts the columns, `0,1,...,n-1`: pandas' column
//! names for a DataFrame made from an array, or a sample. The command reads it as the files'
//! evidence shows, or refuses; it never guesses, in any text format, streamed or read whole.

mod common;

use std::path::{Path, PathBuf};

use common::{gzip, run, Run, Scratch};

/// `eval --format json` of the files, with `extra` arguments.
fn eval(y_true: &Path, y_score: &Path, extra: &[&str]) -> Run {
    let (t, s) = (y_true.to_str().unwrap(), y_score.to_str().unwrap());
    let args = [
        &["eval", "--format", "json", "--y-true", t, "--y-score", s][..],
        extra,
    ];
    run(&args.concat())
}

/// scikit-learn's micro ROC AUC, which a dropped first row changes.
const MICRO_AUC: [&str; 6] = [
    "--convention",
    "sklearn",
    "--metric",
    "roc_auc_score",
    "--param",
    "average=micro",
];

/// The value of the single metric a JSON run printed.
fn value(r: &Run) -> f64 {
    assert_eq!(r.status, 0, "{r:?}");
    r.results()[0]["value"].as_f64().unwrap()
}

/// `rows` written with `separator`, one line each.
fn lines(rows: &[&[&str]], separator: &str) -> String {
    rows.iter().map(|r| r.join(separator) + "\n").collect()
}

/// The separator of a file `in_every_format` wrote.
fn separator(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("tsv") => "\t",
        Some("txt") => " ",
        _ => ",",
    }
}

/// The same rows in each text format the command reads: comma, tab, whitespace, gzipped.
fn in_every_format(s: &Scratch, stem: &str, rows: &[&[&str]]) -> Vec<PathBuf> {
    vec![
        s.file(&format!("{stem}.csv"), lines(rows, ",")),
        s.file(&format!("{stem}.tsv"), lines(rows, "\t")),
        s.file(&format!("{stem}.txt"), lines(rows, " ")),
        s.file(&format!("{stem}.csv.gz"), gzip(&lines(rows, ","))),
    ]
}

#[test]
fn scikit_learns_toy_input_is_refused_not_guessed() {
    // test_roc_curve_toydata's y_true = [[0, 1], [0, 1]], y_score = [[0, 1], [1, 0]], saved
    // headerless: both files begin 0,1 and have two lines, so line 1 may be pandas' column
    // names over one sample each, or the first of two samples.
    let s = Scratch::new("toy");
    let labels = in_every_format(&s, "t", &[&["0", "1"], &["0", "1"]]);
    let scores = in_every_format(&s, "s", &[&["0", "1"], &["1", "0"]]);
    for (t, sc) in labels.iter().zip(&scores) {
        for command in ["eval", "compare"] {
            let r = run(&[
                command,
                "--y-true",
                t.to_str().unwrap(),
                "--y-score",
                sc.to_str().unwrap(),
            ]);
            r.assert_unusable(&format!(
                "{} and {}: line 1 (0{sep}1) may be the column names pandas writes for a \
                 DataFrame made from an array (df.to_csv(path, index=False)) or the first \
                 sample, and nothing in the files tells which: read as a header, each file \
                 holds 1 sample; read as a sample, 2. Pass --header to skip line 1 of every \
                 text file, or --no-header to read it as a sample",
                t.display(),
                sc.display(),
                sep = separator(t)
            ));
        }
        // Each flag gives its reading's value: scikit-learn's 0.5 on the arrays as written.
        assert_eq!(
            value(&eval(t, sc, &[&MICRO_AUC[..], &["--no-header"]].concat())),
            0.5
        );
        assert_eq!(
            value(&eval(t, sc, &[&MICRO_AUC[..], &["--header"]].concat())),
            0.0
        );
    }
}

#[test]
fn the_other_files_length_decides_a_line_that_reads_both_ways() {
    let s = Scratch::new("counts");
    let labels = in_every_format(&s, "t", &[&["0", "1"], &["1", "0"], &["1", "1"]]);
    // Three samples: line 1 of the labels is one.
    let three = s.file("s3.csv", "0.5,0.25\n0.75,0.5\n0.25,0.5\n");
    // Two samples: it is a header.
    let two = s.file("s2.csv", "0.75,0.5\n0.25,0.5\n");
    let two_labels = s.file("t2.csv", "1,0\n1,1\n");
    let three_labels = s.file("t3.csv", "1,0\n0,1\n1,1\n");
    for t in &labels {
        let r = eval(t, &three, &MICRO_AUC);
        let sample = eval(t, &three, &[&MICRO_AUC[..], &["--no-header"]].concat());
        assert_eq!(r.json_values(), sample.json_values(), "{r:?}");
        assert!(
            r.stderr.contains(&format!(
                "{}: line 1 is 0{}1, the column names pandas writes for a DataFrame made from \
                 an array (df.to_csv(path, index=False)), or a sample: read as a sample, since \
                 the files then agree (3 samples each); --header skips it",
                t.display(),
                separator(t)
            )),
            "{r:?}"
        );
        let r = eval(t, &two, &MICRO_AUC);
        assert_eq!(value(&r), value(&eval(&two_labels, &two, &MICRO_AUC)));
        assert!(
            r.stderr.contains("read as a header and skipped, since the files then agree (2 samples each); --no-header reads it as a sample"),
            "{r:?}"
        );
        // Scores that begin so are decided alike, and -q says nothing.
        let r = eval(&three_labels, t, &["-q"]);
        assert_eq!(r.status, 0, "{r:?}");
        assert_eq!(r.stderr, "");
    }
    // No reading gives the files one length: refused, with both counts of the labels.
    let one = s.file("s1.csv", "0.75,0.5\n");
    eval(&labels[0], &one, &[]).assert_unusable(&format!(
        "{}: 3 samples (2 if line 1 is a header), but {} has 1 sample (one sample per line)",
        labels[0].display(),
        one.display()
    ));
}

#[test]
fn lines_written_in_another_number_format_make_it_a_header() {
    let s = Scratch::new("format");
    let t = s.file("t.csv", "0,1,2\n1,0,1\n0,1,1\n");
    let plain_t = s.file("t_plain.csv", "1,0,1\n0,1,1\n");
    // pandas writes float frames' whole numbers as 0.0; numpy's savetxt default as %.18e.
    for (name, scores) in [
        ("pandas.csv", "0,1,2\n0.5,0.25,1.0\n0.0,0.75,0.5\n"),
        (
            "numpy.csv",
            "0,1,2\n5.000000000000000000e-01,2.500000000000000000e-01,1.000000000000000000e+00\n\
             0.000000000000000000e+00,7.500000000000000000e-01,5.000000000000000000e-01\n",
        ),
    ] {
        let sc = s.file(name, scores);
        let plain_s = s.file("s_plain.csv", &scores[scores.find('\n').unwrap() + 1..]);
        let r = eval(&t, &sc, &[]);
        assert_eq!(r.json_values(), eval(&plain_t, &plain_s, &[]).json_values());
        assert!(
            r.stderr
                .contains(&format!("{}: line 1 is 0,1,2", sc.display())),
            "{r:?}"
        );
        assert!(r.stderr.contains("as \"1.0\" (field 3)") || r.stderr.contains("e+00\" (field 3)"));
    }
    // A row index under the header: one field more than line 1.
    let indexed = s.file("indexed.csv", "0,1,2\n0,0.5,0.25,0.75\n1,0.5,0.5,0.25\n");
    let plain_s = s.file("s2.csv", "0.5,0.25,0.75\n0.5,0.5,0.25\n");
    let r = eval(&t, &indexed, &[]);
    assert_eq!(
        r.json_values(),
        eval(&plain_t, &plain_s, &[]).json_values(),
        "{r:?}"
    );
}

#[test]
fn a_weight_file_decides_between_two_readings() {
    let s = Scratch::new("weights");
    let t = s.file("t.csv", "0,1\n1,0\n1,1\n");
    let sc = s.file("s.csv", "0,1\n1,0\n0,1\n");
    // Line 1 as a header: the files without it, each with the same weights.
    let plain_t = s.file("t_plain.csv", "1,0\n1,1\n");
    let plain_s = s.file("s_plain.csv", "1,0\n0,1\n");
    for (weights, (plain_t, plain_s)) in
        [("1\n2\n", (&plain_t, &plain_s)), ("1\n2\n3\n", (&t, &sc))]
    {
        let w = s.file("w.csv", weights);
        let w = ["--sample-weight", w.to_str().unwrap()];
        let r = eval(&t, &sc, &w);
        let read = eval(plain_t, plain_s, &[&w[..], &["--no-header"]].concat());
        assert_eq!(r.json_values(), read.json_values(), "{r:?}");
        let lines = weights.lines().count();
        assert!(
            r.stderr
                .contains(&format!("since the weight file has {lines} lines")),
            "{r:?}"
        );
    }
    // A weight file of neither length leaves both readings, and the weights' own error.
    let w = s.file("w5.csv", "1\n1\n1\n1\n1\n");
    eval(&t, &sc, &["--sample-weight", w.to_str().unwrap()])
        .assert_unusable("nothing in the files tells which");
}

#[test]
fn streamed_reads_follow_the_same_decision() {
    // More rows than one chunk (4,096): the stream reads every chunk under the decision.
    let s = Scratch::new("stream");
    let n = 5_000;
    let row = |i: usize| format!("{},{}", i % 2, (i / 2) % 2);
    let score = |i: usize| format!("{},{}", (i % 7) as f64 / 8.0, (i % 5) as f64 / 8.0);
    let body = |f: &dyn Fn(usize) -> String| (0..n).map(|i| f(i) + "\n").collect::<String>();
    let t = s.file("t.csv", format!("0,1\n{}", body(&row)));
    let plain_t = s.file("t_plain.csv", body(&row));
    let sc = s.file("s.csv.gz", gzip(&body(&score)));
    // n + 1 lines against n: a header, for every metric of every convention.
    for convention in ["rankmetrics", "sklearn", "mldr", "mulan", "torchmetrics"] {
        let args = ["--convention", convention, "-q"];
        let r = eval(&t, &sc, &args);
        assert_eq!(
            r.json_values(),
            eval(&plain_t, &sc, &args).json_values(),
            "{convention}"
        );
        assert_eq!(
            r.provenance()["inputs"]["y_true"]["rows"],
            n,
            "{convention}"
        );
    }
    // Both files beginning so with n + 1 lines each: refused.
    let both = s.file("s_both.csv", format!("0,1\n{}", body(&score)));
    let both_t = s.file("t_both.csv", format!("0,1\n{}", body(&row)));
    let r = eval(&both_t, &both, &[]);
    r.assert_unusable(&format!(
        "read as a header, each file holds {n} samples; read as a sample, {}",
        n + 1
    ));
}
