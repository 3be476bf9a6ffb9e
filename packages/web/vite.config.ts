import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev`: Vite on 5173 with /api proxied to the server (`npx cena-metra serve`, port 3000).
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { proxy: { '/api': process.env.API_URL ?? 'http://127.0.0.1:3000' } },
  // no gzip size of every asset in the build's report: ~5 s of a first `npm start`, whose demo is generated on
  // the same two cores meanwhile (the bench measures the JavaScript's gzip size itself)
  build: { target: 'es2022', chunkSizeWarningLimit: 1500, reportCompressedSize: false },
});
