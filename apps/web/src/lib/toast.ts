// Toasts come from react-hot-toast's headless build, rendered by components/ui/toaster.tsx.
// The styled build injects a <style> element at run time (goober), which the strict
// Content-Security-Policy refuses; the headless store plus our own markup needs no
// inline styles. Import `toast` from here, never from 'react-hot-toast' directly: that
// is a separate store that nothing renders.
export { toast } from 'react-hot-toast/headless';
