/* The header declares a function that libFuzzer defines; this file gives the target a source. */
