import { createRoot } from 'react-dom/client';
import { Chat } from './Chat.jsx';
import './style.css';

createRoot(document.getElementById('root')).render(<Chat />);
