import baseConfig from "../../eslint.config.mjs";

export default [
    ...baseConfig,
    {
        // A published package: it bundles only its own src/, so no other project of this repository.
        files: ["src/**/*.ts"],
        rules: {
            "no-restricted-imports": ["error", { patterns: [{ group: ["@owd/*"], message: "@owd/receiver is installed by customers: keep it self-contained" }] }],
        },
    },
];
