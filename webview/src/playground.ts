// Playground webview entry (placeholder until the playground lands).
