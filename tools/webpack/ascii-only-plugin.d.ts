import type { Compiler } from 'webpack';

/** Writes every character of the emitted JavaScript outside ASCII as a \uXXXX escape (ascii-only-plugin.js). */
export declare class AsciiOnlyPlugin {
  apply(compiler: Compiler): void;
}
