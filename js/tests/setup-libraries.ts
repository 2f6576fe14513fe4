// The views' tests draw markdown as the exported page does: with the libraries given at
// once. How StreamView's page receives them is tested apart (host/libraries.test.ts).
import "../src/libraries/bundled";
